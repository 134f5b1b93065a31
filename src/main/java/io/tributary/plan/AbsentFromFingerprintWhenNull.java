package io.tributary.plan;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a plan node's component that was added after views were already stored with the node's
 * fingerprint: {@link PlanFingerprint} leaves the component out while it is null, so a view whose
 * plan does not use it keeps the fingerprint an older build stored and is not refused at restart.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.RECORD_COMPONENT)
public @interface AbsentFromFingerprintWhenNull {}
