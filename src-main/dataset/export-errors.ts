// Errors of a dataset export, apart from the export job so pure builders can raise them.

/** A problem with the request itself; its message says what to change. */
export class DatasetExportError extends Error {}
