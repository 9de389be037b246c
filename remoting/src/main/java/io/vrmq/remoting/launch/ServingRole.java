package io.vrmq.remoting.launch;

import io.vertx.core.Future;

/**
 * A role that serves its clients before its whole start completes: the NameServer answers registrations and route
 * queries once its remoting port listens, while its admin API is still starting. The roles after it in the same
 * process (see {@link StartsBeside}) wait for {@link #serving}, not for the start; the start itself still completes
 * only when everything is up. Implemented by the role's verticle.
 */
public interface ServingRole {

    /**
     * Completes when the role serves its clients (on any thread), fails when its start fails first. Never completes
     * later than the start's own future. Valid from the verticle's construction on.
     */
    Future<Void> serving();
}
