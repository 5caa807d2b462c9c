import { useState } from 'react';
import type { GenerationSettings } from '../../../../src-main/common/contract/simulation';
import { forgetAllOverrides, forgetOverride, overrideSetting, type SettingKey } from '../../state/generation-settings';
import { NUMERIC_FIELDS, parseSetting, summarizeSettings, type NumericField } from './sampling-fields';

const SOURCE_WORDS = {
  model: { text: 'model', title: "The loaded model's recommendation" },
  workspace: { text: 'yours', title: 'Set for this workspace (remembered in it); click to use the model’s value again' },
  fallback: { text: 'default', title: "Worldloom's default: the model recommends nothing for this" },
} as const;

/** Where a setting's value comes from; an override can be dropped from here. */
function SettingSource({ settings, name }: { settings: GenerationSettings; name: SettingKey }) {
  const source = (settings.sources[name] ?? 'fallback') as keyof typeof SOURCE_WORDS;
  const words = SOURCE_WORDS[source];
  if (source !== 'workspace') return <small className={`setting-source source-${source}`} title={words.title}>{words.text}</small>;
  return (
    <button type="button" className="link setting-source source-workspace" title={words.title} aria-label={`Use the model's ${name}`} onClick={() => void forgetOverride(name)}>
      {words.text} ↺
    </button>
  );
}

/** One numeric setting: shows what is in force; a valid value typed is remembered for the workspace at once. */
function NumberSetting({ field, settings }: { field: NumericField; settings: GenerationSettings }) {
  const value = settings.effective[field.key];
  const [typed, setTyped] = useState<string | null>(null);
  const parsed = typed === null ? null : parseSetting(field, typed, settings.maxTokensLimit);
  const problem = parsed && 'problem' in parsed ? parsed.problem : null;
  return (
    <div className="setting">
      <label title={field.hint}>
        {field.label}
        <input
          type="number"
          min={field.min}
          max={field.max ?? settings.maxTokensLimit}
          step={field.step}
          value={typed ?? String(value)}
          aria-invalid={problem !== null}
          onChange={(e) => {
            setTyped(e.target.value);
            const next = parseSetting(field, e.target.value, settings.maxTokensLimit);
            if ('value' in next && next.value !== value) void overrideSetting(field.key, next.value);
          }}
          onBlur={() => setTyped(null)}
        />
      </label>
      <SettingSource settings={settings} name={field.key} />
      {problem && <small className="error">{problem}</small>}
    </div>
  );
}

/** The thinking switch: shown for models that reason; fixed on (with the reason) where the template cannot switch it off. */
function ThinkingSwitch({ settings }: { settings: GenerationSettings }) {
  if (!settings.reasoning.reasons) return null;
  const locked = !settings.reasoning.canDisable;
  return (
    <div className="setting thinking-setting">
      <label title={locked ? "This model's chat template has no switch for thinking (enable_thinking): it always reasons." : 'Off asks the model to answer at once, without reasoning.'}>
        <input type="checkbox" checked={settings.effective.thinking} disabled={locked} onChange={(e) => void overrideSetting('thinking', e.target.checked)} />
        Thinking
      </label>
      {locked ? (
        <small className="muted" data-testid="thinking-locked">
          always on: this model cannot be asked not to reason
        </small>
      ) : (
        <SettingSource settings={settings} name="thinking" />
      )}
    </div>
  );
}

/** The generation settings in force for this workspace, each with where it comes from. */
export function SamplingFields({ settings }: { settings: GenerationSettings }) {
  const overridden = Object.keys(settings.workspace).length > 0;
  return (
    <>
      <div className="sampling sampling-settings">
        {NUMERIC_FIELDS.map((field) => (
          <NumberSetting key={field.key} field={field} settings={settings} />
        ))}
        <ThinkingSwitch settings={settings} />
      </div>
      <p className="muted small" data-testid="model-defaults">
        {Object.keys(settings.model).length > 0 ? <>The model recommends {summarizeSettings(settings.model)}.</> : <>No model loaded: Worldloom's defaults are shown.</>}{' '}
        Budget up to {settings.maxTokensLimit.toLocaleString('en-US')} tokens.
        {overridden && (
          <>
            {' '}
            <button type="button" className="link" onClick={() => void forgetAllOverrides()}>
              Use the model's settings
            </button>
          </>
        )}
      </p>
    </>
  );
}
