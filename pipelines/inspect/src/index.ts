// Public API of @winnow/inspect: the HTML report of a run's block decisions, and the labelling
// server behind `winnow label-ui`.

export { type InspectOptions, type InspectSummary, openClassifier, writeInspectReport } from "./inspect.js";
export { type LabelPage, loadLabelPages } from "./label-data.js";
export { DEFAULT_LABEL_PORT, LabelServerError, type RunningLabelServer, startLabelServer } from "./label-server.js";
export { LabelStore } from "./label-store.js";
export { DEFAULT_REPORT_LIMIT } from "./report-data.js";
