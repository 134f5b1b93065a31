package io.tributary.server.pgwire;

import io.tributary.server.session.SessionFactory;
import java.security.SecureRandom;

/**
 * What every connection of one server shares.
 *
 * @param credentials the SCRAM secret, or null for trust authentication
 * @param observer hears how each statement ended
 */
record PgServerContext(
        SessionFactory sessionFactory,
        ScramCredentials credentials,
        PgBackendRegistry registry,
        SecureRandom random,
        StatementObserver observer) {}
