package io.tributary.stream.runtime;

import java.util.List;

/**
 * The running actors of one materialized view, the upstream subscriptions feeding them and the
 * feed of the view's own changes. Started and stopped between epochs, under the barrier lock.
 */
final class StreamJob {
    private final List<Actor> actors;
    private final List<RelationFeed.Subscription> subscriptions;
    private final RelationFeed feed;

    StreamJob(List<Actor> actors, List<RelationFeed.Subscription> subscriptions, RelationFeed feed) {
        this.actors = actors;
        this.subscriptions = subscriptions;
        this.feed = feed;
    }


    RelationFeed feed() {
        return feed;
    }


    void start() {
        actors.forEach(Actor::start);
    }

    /** Unsubscribes from upstream first, so no sender can block on a channel nobody reads. */
    void stop() {
        for (RelationFeed.Subscription s : subscriptions) {
            s.feed().unsubscribe(s);
        }
        actors.forEach(Actor::stop);
    }
}
