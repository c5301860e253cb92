/**
 * The basis's words when DEFAULT_HOST_GBPS stands in: one phrase, so decode's and prefill's say it once. Its own
 * module, read by the speed model alone: host.ts is also on the page's thread (the cluster panel's bandwidth field).
 */
import { DEFAULT_HOST_GBPS } from "./host.ts";

export const HOST_BANDWIDTH_ASSUMED = `host bandwidth unknown: ${DEFAULT_HOST_GBPS.toFixed(1)} GB/s (2 × DDR4-3200) assumed`;
