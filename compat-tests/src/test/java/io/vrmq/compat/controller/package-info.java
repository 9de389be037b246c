/**
 * RocketMQ 5 controller mode against our controller: real Apache RocketMQ 5.5.0 brokers (controller mode, AutoSwitch
 * HA) electing and failing over through it, and the 5.5.0 mqadmin controller commands.
 */
package io.vrmq.compat.controller;
