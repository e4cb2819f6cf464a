/**
 * Imported first: the SDK's zod would probe `new Function` to compile its parsers, which the page's policy
 * forbids (and the browser reports as a violation). Set before zod loads, its global configuration makes it
 * interpret instead of probing.
 *
 * @module
 */

const scope = globalThis as { __zod_globalConfig?: Record<string, unknown> };
scope.__zod_globalConfig = { ...scope.__zod_globalConfig, jitless: true };
