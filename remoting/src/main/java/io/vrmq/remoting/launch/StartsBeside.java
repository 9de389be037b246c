package io.vrmq.remoting.launch;

import io.vertx.core.Future;

/**
 * A role that starts beside the roles before it in the same process instead of after them, and waits for them only
 * at the step that needs them: the broker opens its store and listens while the NameServer of its JVM starts, and
 * registers once that NameServer serves. The launcher marks such a role ({@code RoleLauncher.Role#startsBeside}) and
 * hands its verticle, before deploying it, the future of the earlier roles serving (see {@link ServingRole}).
 * Implemented by the role's verticle.
 */
public interface StartsBeside {

    /**
     * {@code earlierRolesServing} completes (on any thread) once every role before this one serves, or fails with
     * the first of their start failures; the start must not rely on them before it completed. Called once, before
     * the deployment.
     */
    void startBeside(Future<Void> earlierRolesServing);
}
