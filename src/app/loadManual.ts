/**
 * Manual mode's reader: config.json read with json5 (Python's bare Infinity,
 * about 10 KB gzipped) and sized by the engine. The first screen plans the
 * catalog's example and needs none of it, so it loads when a model is given
 * by hand (the form or a link that carries one). One loader, so the page
 * and the form share one load.
 */
export const loadManual = () => import("../hub/manual.ts");
