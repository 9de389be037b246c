/**
 * Stopping our servers at any moment: each role as a child JVM gets SIGTERM at the phases of its start (at once,
 * reading its config, recovering its store, right after its boot line, under load) and SIGKILL at random points, and
 * must exit promptly with the right code, never block an event loop, and come back serving the official 5.5.0
 * clients with everything they had acknowledged.
 */
package io.vrmq.compat.lifecycle;
