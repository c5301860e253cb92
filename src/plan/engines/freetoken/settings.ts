/** FreeToken's defaults. */

/** FreeToken --memory-ratio: 0.9 of FREE memory (FreeToken v0.1.2 docs, docs/notes/architectures.md §3). */
export const FREETOKEN_MEMORY_RATIO = 0.9;
