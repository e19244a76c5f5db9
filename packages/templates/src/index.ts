export { pageFingerprints, intersectionSize, forEachShared, hasFingerprint, templateBlocks, dropTemplateBlocks } from "./fingerprints.js";
export {
  SiteTemplateFitter,
  SiteTemplates,
  DEFAULT_MIN_SHARED_PAIRS,
  DEFAULT_NEAR_DUPLICATE_IOU,
  type SiteTemplateOptions,
  type HostTemplate,
} from "./site-templates.js";
