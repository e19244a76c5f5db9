export { writeInspectReport, openClassifier, InspectError, type InspectOptions, type InspectSummary } from "./inspect.js";
export { buildReportData, DEFAULT_REPORT_LIMIT, type ReportData, type ReportDocument, type ReportOptions } from "./report-data.js";
export { renderReport } from "./report-html.js";
export { blockViews, blockFeatures, type BlockView, type BlockFeatures } from "./block-view.js";
export { jsonForScript } from "./json-script.js";
export { loadLabelPages, LabelDataError, type LabelPage, type LoadLabelPagesOptions } from "./label-data.js";
export { LabelStore } from "./label-store.js";
export {
  startLabelServer,
  DEFAULT_LABEL_PORT,
  LABEL_HOST,
  LabelServerError,
  type LabelServerOptions,
  type RunningLabelServer,
  type PageDetail,
} from "./label-server.js";
export { renderLabelPage } from "./label-html.js";
export { LabelFileError } from "@winnow/labels";
