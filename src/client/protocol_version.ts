/**
 * The MCP protocol version weft's own clients ask for, the commands and the bridge's (`weft_client.ts`) as
 * well as Studio's page, which bundles this module: so it stays pure, no import and no runtime API.
 *
 * @module
 */

/**
 * The newest version the service's SDK speaks (a test holds the two together), which the service then
 * answers with.
 */
export const PROTOCOL_VERSION = "2025-11-25";
