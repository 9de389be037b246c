package io.vrmq.namesrv.route;

/** What a registering broker is told: for a slave, its master's address and HA address (null for a master). */
public record RegisterResult(String masterAddr, String haServerAddr) {
}
