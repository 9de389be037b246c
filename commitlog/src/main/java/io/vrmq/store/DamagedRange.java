package io.vrmq.store;

import java.nio.file.Path;

/**
 * Bytes of the CommitLog that recovery could not read as records and skipped; records after them keep their
 * offsets and stay readable.
 *
 * @param position byte position inside {@code file}
 */
public record DamagedRange(Path file, int position, long commitLogOffset, int lengthBytes, String reason) {
}
