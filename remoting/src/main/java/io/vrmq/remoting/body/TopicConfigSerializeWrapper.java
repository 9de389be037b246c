package io.vrmq.remoting.body;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.Map;

/**
 * A broker's topic table with its version, as sent inside a registration. The static-topic mapping parts are
 * carried as raw JSON: we keep what a broker sends but do not interpret it.
 */
public record TopicConfigSerializeWrapper(Map<String, TopicConfig> topicConfigTable, DataVersion dataVersion,
                                          DataVersion mappingDataVersion,
                                          JsonNode topicQueueMappingInfoMap,
                                          JsonNode topicQueueMappingDetailMap) {
    public TopicConfigSerializeWrapper {
        topicConfigTable = topicConfigTable == null ? Map.of() : topicConfigTable;
    }

    public TopicConfigSerializeWrapper(Map<String, TopicConfig> topicConfigTable, DataVersion dataVersion) {
        this(topicConfigTable, dataVersion, null, null, null);
    }
}
