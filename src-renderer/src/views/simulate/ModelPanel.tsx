import { useState } from 'react';
import { installGpuRuntime, loadModel, unloadModel, useSimulation } from '../../state/simulation';
import type { DeviceChoice } from '../../../../src-main/common/device';
import { DeviceChooser } from './DeviceChooser';
import { summarizeSettings } from './sampling-fields';
import { modelDisplayName, reasoningSentence } from './model-name';
import { DemoModelNote } from './DemoModelNote';

function formatBytes(n: number | undefined): string {
  if (!n) return 'unknown';
  if (n < 1 << 20) return `${Math.ceil(n / 1024)} KB`;
  return n > 1 << 30 ? `${(n / (1 << 30)).toFixed(1)} GB` : `${(n / (1 << 20)).toFixed(0)} MB`;
}

/** A whole number of threads the contract takes (1–1024). */
function isThreadCount(text: string): boolean {
  const n = Number(text);
  return Number.isInteger(n) && n >= 1 && n <= 1024;
}

/** A whole number of requests at once the contract takes (1–256). */
function isConcurrency(text: string): boolean {
  const n = Number(text);
  return Number.isInteger(n) && n >= 1 && n <= 256;
}

/** Which world model simulates: a model folder run in-process, or an OpenAI-compatible server. */
export function ModelPanel({ onDone }: { onDone: () => void }) {
  const model = useSimulation((s) => s.model);
  const gpuLog = useSimulation((s) => s.gpuInstallLog);
  const [folder, setFolder] = useState(model?.defaultModelPath ?? '');
  const [device, setDevice] = useState<DeviceChoice>('auto');
  // The CLI's --threads: empty leaves the engine's own count (GGUF: all cores but one).
  const [threads, setThreads] = useState('');
  const threadsValid = threads === '' || isThreadCount(threads);
  const placement = { device, ...(threads && threadsValid ? { threads: Number(threads) } : {}) };
  // The CLI's --concurrency: a server's requests in flight, a .gguf model's parallel sequences;
  // empty takes what this workspace last used, else the engine's default (16 for a server, 8 sequences).
  const [concurrency, setConcurrency] = useState('');
  const concurrencyValid = concurrency === '' || isConcurrency(concurrency);
  const limit = concurrency && concurrencyValid ? { concurrency: Number(concurrency) } : {};
  // The CLI's --adapter: a GGUF LoRA adapter applied over a .gguf model.
  const [adapter, setAdapter] = useState('');
  const adapterSpec = adapter.trim() ? { adapter: adapter.trim() } : {};
  const [baseUrl, setBaseUrl] = useState('http://127.0.0.1:8000/v1');
  const [name, setName] = useState('');
  const [apiKey, setApiKey] = useState('');
  const loaded = model?.loaded;

  return (
    <section className="sheet model-panel" aria-label="World model">
      <div className="model-now">
        <h3>Loaded model</h3>
        {model?.loading ? (
          <p>Loading…</p>
        ) : loaded ? (
          <>
            <p data-testid="model-loaded">
              <strong>{modelDisplayName(loaded)}</strong> <span className="muted">({loaded.modelId})</span> on <strong>{loaded.device}</strong> · context {loaded.contextLength.toLocaleString()} tokens · memory{' '}
              {formatBytes(loaded.memoryBytes)}
            </p>
            <p className="small" data-testid="model-recommends">
              {Object.keys(loaded.recommendedSampling).length > 0 ? `Recommends ${summarizeSettings(loaded.recommendedSampling)}.` : 'Recommends no sampling settings.'}{' '}
              {reasoningSentence(loaded.reasoning)}
            </p>
            <DemoModelNote />
            <ul className="providers">
              {loaded.providers.map((p) => (
                <li key={p.name}>
                  {p.used ? '●' : '○'} {p.name}: {p.reason}
                </li>
              ))}
            </ul>
            {loaded.concurrency && (
              <p className="small" data-testid="model-concurrency">
                At once: {loaded.concurrency.how}.
              </p>
            )}
            {loaded.notes.map((n) => (
              <p key={n} className="muted small">
                {n}
              </p>
            ))}
            <button onClick={() => void unloadModel()}>Unload</button>
          </>
        ) : (
          <p className="muted">None. Load a model folder or connect to a server.</p>
        )}
        {model?.gpuRuntime === 'not-installed' && (
          <div className="gpu">
            <p className="muted">NVIDIA GPU? Install onnxruntime's CUDA runtime (a one-time download), then load the model again.</p>
            <button onClick={() => void installGpuRuntime()}>Install CUDA runtime</button>
            {gpuLog.length > 0 && <pre className="text small">{gpuLog.join('\n')}</pre>}
          </div>
        )}
      </div>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          // A .gguf file runs on llama.cpp; a folder is an ONNX model.
          const path = folder.trim();
          const spec = /\.gguf$/i.test(path) ? { kind: 'gguf' as const, path, ...placement, ...limit, ...adapterSpec } : { kind: 'onnx' as const, path, ...placement };
          void loadModel(spec).then((ok) => ok && onDone());
        }}
      >
        <label>
          Model folder (onnxruntime-genai layout) or .gguf file, on the machine running Worldloom
          <input value={folder} onChange={(e) => setFolder(e.target.value)} spellCheck={false} />
        </label>
        <DeviceChooser value={device} onChange={setDevice} />
        <label>
          CPU threads (empty: automatic)
          <input type="number" min={1} max={1024} step={1} value={threads} onChange={(e) => setThreads(e.target.value)} placeholder="automatic" />
        </label>
        <label>
          Parallel sequences of a .gguf model (empty: as last time, else 8; an ONNX folder runs one step at a time)
          <input type="number" min={1} max={256} step={1} value={concurrency} onChange={(e) => setConcurrency(e.target.value)} placeholder="automatic" aria-label="Requests at once" />
        </label>
        <label>
          LoRA adapter over a .gguf model (a GGUF adapter file; empty: none)
          <input value={adapter} onChange={(e) => setAdapter(e.target.value)} spellCheck={false} placeholder="none" aria-label="LoRA adapter" />
        </label>
        <button type="submit" disabled={!folder.trim() || !threadsValid || !concurrencyValid || (adapter.trim() !== '' && !/\.gguf$/i.test(folder.trim()))}>
          Load folder
        </button>
      </form>
      {(model?.localGguf?.length ?? 0) > 0 && (
        <div className="local-gguf">
          <h4>GGUF models on this machine (LM Studio, Ollama)</h4>
          <ul>
            {model!.localGguf!.map((m) => (
              <li key={m.path}>
                <span title={m.path}>{m.name}</span> <span className="muted">({m.source}, {formatBytes(m.bytes)})</span>{' '}
                <button disabled={!threadsValid || !concurrencyValid} onClick={() => void loadModel({ kind: 'gguf', path: m.path, ...placement, ...limit, ...adapterSpec }).then((ok) => ok && onDone())}>
                  Load
                </button>
              </li>
            ))}
          </ul>
        </div>
      )}
      {(model?.localGgufAdapters?.length ?? 0) > 0 && (
        <div className="local-gguf-adapters">
          <h4>LoRA adapters on this machine (open one over a .gguf model of its architecture)</h4>
          <ul>
            {model!.localGgufAdapters!.map((a) => (
              <li key={a.path}>
                <span title={a.path}>{a.name}</span> <span className="muted">({a.source}, adapts {a.architecture}, {formatBytes(a.bytes)})</span>{' '}
                <button type="button" onClick={() => setAdapter(a.path)} aria-label={`Use the adapter ${a.name}`}>
                  Use
                </button>
              </li>
            ))}
          </ul>
        </div>
      )}
      {(model?.localGgufUnreadable?.length ?? 0) > 0 && (
        <div className="local-gguf-unreadable" role="note">
          <h4>Model folders Worldloom could not read</h4>
          <ul>
            {model!.localGgufUnreadable!.map((f) => (
              <li key={f.folder}>
                <code>{f.folder}</code> <span className="muted">({f.source}: {f.why})</span>: {f.reason}
              </li>
            ))}
          </ul>
        </div>
      )}
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void loadModel({ kind: 'openai', baseUrl: baseUrl.trim(), ...(name.trim() ? { model: name.trim() } : {}), ...(apiKey ? { apiKey } : {}), ...limit }).then(
            (ok) => ok && onDone(),
          );
        }}
      >
        <label>
          OpenAI-compatible endpoint (vLLM, SGLang, llama.cpp)
          <input value={baseUrl} onChange={(e) => setBaseUrl(e.target.value)} spellCheck={false} />
        </label>
        <label>
          Model name (optional when the server has one)
          <input value={name} onChange={(e) => setName(e.target.value)} spellCheck={false} />
        </label>
        <label>
          API key (kept in the OS keychain by the desktop app; or set WORLDLOOM_API_KEY)
          <input type="password" value={apiKey} onChange={(e) => setApiKey(e.target.value)} autoComplete="off" />
        </label>
        <label>
          Requests at once (empty: as last time, else 16; what the server batches well: vLLM and SGLang take dozens, a llama.cpp server its --parallel slots)
          <input type="number" min={1} max={256} step={1} value={concurrency} onChange={(e) => setConcurrency(e.target.value)} placeholder="automatic" aria-label="Server requests at once" />
        </label>
        <button type="submit" disabled={!baseUrl.trim() || !concurrencyValid}>
          Connect
        </button>
      </form>
    </section>
  );
}
