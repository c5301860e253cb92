/**
 * The cluster fields' bounds, held by the schemas (schema.ts) and the
 * panel's fields alike; apart from the schemas so the first screen holds
 * them without zod (issue 19).
 */
/**
 * Upper bounds past which a number is a typo or a unit slip, not a machine.
 * Devices a group: the largest node seen in the inventory samples advertises
 * 128 time-sliced GPUs (AWS P5, 8 cards × 4 MIG × 4 replicas); 1,024 leaves
 * 8× room for any real node, where the link's old 10,000 let a typo through
 * that validation then refused. No accelerator has a TiB of its own memory
 * (MI355X: 288 GB). 64 TiB of host RAM is past the largest single-image
 * servers sold; Slurm's RealMemory in MB pasted as GiB (1031736) lands well above it.
 */
export const MAX_DEVICES_PER_GROUP = 1024;
export const MAX_DEVICE_MEM_GIB = 1024;
export const MAX_HOST_MEM_GIB = 65536;
export const MAX_NODES = 10_000;
/**
 * Card classes on one node: one group per class, and a node split into MIG
 * slices has at most a handful (an A100 makes 5 profiles); 64 is the link's
 * bound, kept, and a list of 200,000 groups is refused before it is walked.
 */
export const MAX_GROUPS_PER_NODE = 64;
/** An id, class or fabric: a host name is at most 253 characters (RFC 1035 §2.3.4); 200 holds every real one seen. */
export const MAX_TEXT_CHARS = 200;

/**
 * No fabric today moves 10 Tbit/s to a card (ConnectX-8 is 800 Gbit/s), and
 * no host's memory 10 TB/s (12 channels of DDR5-6400: 614 GB/s): past that it is a typo.
 */
export const MAX_FABRIC_GBPS = 10_000;
export const MAX_HOST_GBPS = 10_000;
/** Memory channels a host may say (all sockets): two 12-channel EPYCs have 24, eight-socket Xeons 64; 128 is a typo's bound. */
export const MAX_HOST_MEM_CHANNELS = 128;
/** A DIMM's transfer rate, MT/s: DDR5 MRDIMMs reach 8,800; past 20,000 it is a typo (or GB/s in the wrong field). */
export const MAX_HOST_MEM_MTS = 20_000;
/** No host has 10,000 cores (two 192-core EPYCs have 384): past that it is a typo. */
export const MAX_CPU_CORES = 10_000;
/**
 * A card's own figures, given for a class the table lacks: the fastest in the table read 8,000 GB/s (B200/GB200's
 * HBM3E) and 2,517 dense BF16 TFLOPS (MI355X); 100,000 of either is past any card, a unit slip (Gbit/s, or sparse
 * FP4 "PFLOPS" × 1000) or a typo.
 */
export const MAX_CARD_GBPS = 100_000;
export const MAX_CARD_TFLOPS = 100_000;
