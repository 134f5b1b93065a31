package io.tributary.plan;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a plan node's component that says only when the node may forget state (window cleaning),
 * not what the state holds or what the view shows. Such components were added after views were
 * already stored with their nodes' fingerprints, so {@link PlanFingerprint} leaves one out while it
 * is null, and {@link PlanFingerprint#matches} accepts a stored fingerprint that lacks it: a view an
 * older build stored is taken over by the plan that now also forgets finished state, instead of
 * being refused at restart.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.RECORD_COMPONENT)
public @interface StateLifetime {}
