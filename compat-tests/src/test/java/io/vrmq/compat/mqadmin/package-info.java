/**
 * The official mqadmin ({@code org.apache.rocketmq:rocketmq-tools} 5.5.0) against our NameServer and broker, each
 * command run in-process through the tool's own entry class ({@link io.vrmq.compat.mqadmin.MqAdmin}: {@code
 * MQAdminStartup.main0}, stdout and stderr captured) with {@code -n <our NameServer>}; a test checks what the command
 * printed and, for a command that changes something, the change through the admin API. Each {@code *IT} class shares
 * one NameServer and one broker (child JVMs from {@code vrmq.namesrv.jar} / {@code vrmq.broker.jar}) across its tests.
 * Run with {@code mvn -B -pl compat-tests verify -Dit.test='io.vrmq.compat.mqadmin.**'}.
 *
 * <ul>
 *   <li>{@code MqAdminTopicCommandsIT}: updateTopic (-b, -c), deleteTopic, topicList (plain, -c), topicRoute (JSON,
 *       -l), topicStatus, clusterList, brokerStatus (-b, -c), getBrokerConfig (-b, -c)</li>
 *   <li>{@code MqAdminClientCommandsIT}: consumerProgress (-g, -g -s true through GET_CONSUMER_RUNNING_INFO, no
 *       group), consumerConnection, producerConnection, updateSubGroup (-b, -c), resetOffsetByTime (online and
 *       offline group); beyond the list: consumerStatus -i, producer, brokerConsumeStats</li>
 *   <li>{@code MqAdminMessageCommandsIT}: queryMsgById (offset id and unique client id), queryMsgByKey,
 *       queryMsgByOffset</li>
 * </ul>
 */
package io.vrmq.compat.mqadmin;
