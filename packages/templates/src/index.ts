// Public API of @winnow/templates: site templates, the subtrees that URL-neighbour pages of one
// host share, and dropping blocks inside them.

export { pageFingerprints, templateBlocks, dropTemplateBlocks } from "./fingerprints.js";
export {
  SiteTemplateFitter,
  SiteTemplates,
  type SiteTemplateOptions,
} from "./site-templates.js";
