/**
 * The session limits `weft serve` starts the service with, and their defaults, known without loading the
 * service: the serve command loads it only once it is claiming `.weft/`.
 *
 * @module
 */

export { DEFAULT_SESSION_LIMITS, type SessionLimits } from "../http/session_limits.ts";
