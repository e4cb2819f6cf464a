/**
 * The person's trust in a project's content, as `weft trust` reviews, grants and revokes it in process: the
 * record is the person's own file, which the service reads at every use, so no service need run.
 *
 * @module
 */

export { grantTrust, reviewTrust, revokeTrust, type TrustReview } from "../model/trust_review.ts";
export { projectKey } from "../model/project_trust.ts";
