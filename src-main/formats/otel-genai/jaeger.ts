// Jaeger's JSON (the UI's "Download JSON", its query API's /api/traces): {data: [{traceID, spans:
// [{traceID, spanID, operationName, startTime (µs), tags: [{key, type, value}], logs:
// [{timestamp, fields: [{key, type, value}]}], processID}], processes: {<id>: {serviceName}}}]}.
// Its spans carry the same GenAI attributes as OTLP's, as tags; each is turned into the span
// ./import.ts reads, so a trace reads the same whichever way it was exported. An OpenTelemetry
// span's status arrives as the `otel.status_code` tag (ERROR) or the `error` tag (true).
import type { Span } from './import';

type Rec = Record<string, unknown>;
const isRec = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (v: unknown): string => (typeof v === 'string' || typeof v === 'number' ? String(v) : '');

/** Jaeger's key/type/value list as attributes (values as Jaeger wrote them). */
function tags(list: unknown): Rec {
  const out: Rec = {};
  for (const t of Array.isArray(list) ? list : []) if (isRec(t) && typeof t.key === 'string') out[t.key] = t.value;
  return out;
}

const isTrace = (t: unknown): boolean => isRec(t) && typeof t.traceID === 'string' && Array.isArray(t.spans);

/** Whether a parsed document is a Jaeger JSON export: the query API's {data: [traces]}, or one trace as the UI models it. */
export function isJaegerExport(doc: unknown): doc is { data: unknown[] } | Rec {
  return isRec(doc) && ((Array.isArray(doc.data) && doc.data.some(isTrace)) || (isTrace(doc) && isRec(doc.processes)));
}

/** The spans of a Jaeger export, as the OTLP reader's spans. */
export function jaegerSpans(doc: { data: unknown[] } | Rec): Span[] {
  const spans: Span[] = [];
  for (const trace of (Array.isArray(doc.data) ? doc.data : [doc]).filter(isRec)) {
    const processes = isRec(trace.processes) ? trace.processes : {};
    for (const sp of (Array.isArray(trace.spans) ? trace.spans : []).filter(isRec)) {
      const attrs = tags(sp.tags);
      const process = typeof sp.processID === 'string' && isRec(processes[sp.processID]) ? (processes[sp.processID] as Rec) : isRec(sp.process) ? sp.process : {};
      let start = 0n;
      try {
        start = BigInt(Math.trunc(Number(sp.startTime ?? 0))) * 1000n;
      } catch {
        start = 0n;
      }
      const failed = attrs['otel.status_code'] === 'ERROR' || attrs.error === true || attrs.error === 'true';
      const events = (Array.isArray(sp.logs) ? sp.logs.filter(isRec) : []).map((log) => {
        const fields = tags(log.fields);
        const { event, ...rest } = fields;
        return { name: text(event), attrs: rest };
      });
      spans.push({
        traceId: text(sp.traceID ?? trace.traceID),
        spanId: text(sp.spanID),
        name: text(sp.operationName),
        start,
        attrs,
        status: failed ? { code: 2, ...(typeof attrs['otel.status_description'] === 'string' ? { message: attrs['otel.status_description'] } : {}) } : {},
        events,
        ...(typeof process.serviceName === 'string' ? { service: process.serviceName } : {}),
      });
    }
  }
  return spans;
}
