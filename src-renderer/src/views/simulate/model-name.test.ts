import { describe, expect, it } from 'vitest';
import { isEmbeddedModel, modelDisplayName, reasoningSentence } from './model-name';

describe('the loaded model, named as a person would', () => {
  it('is the folder or file it was loaded from, not its architecture; a server model keeps its served name', () => {
    expect(modelDisplayName({ kind: 'onnx', modelId: 'qwen3_5_moe_text', source: '/opt/worldloom/resources/models/worldloom-nano' })).toBe('worldloom-nano');
    expect(modelDisplayName({ kind: 'onnx', modelId: 'qwen3_5_moe_text', source: 'C:\\models\\my-world\\' })).toBe('my-world');
    expect(modelDisplayName({ kind: 'gguf', modelId: 'qwen35moe', source: '/m/Qwen-AgentWorld-35B-A3B-Q4_K_M.gguf' })).toBe('Qwen-AgentWorld-35B-A3B-Q4_K_M.gguf');
    expect(modelDisplayName({ kind: 'openai', modelId: 'agentworld-35b', source: 'http://gpu:8000/v1' })).toBe('agentworld-35b');
    expect(modelDisplayName({ kind: 'onnx', modelId: 'qwen3_5_moe_text', source: '' })).toBe('qwen3_5_moe_text');
    expect(modelDisplayName({ kind: 'gguf', modelId: 'qwen35moe', source: '/m/base.gguf', adapter: 'C:\\loras\\terminal-lora.gguf' })).toBe('base.gguf + terminal-lora.gguf');
  });

  it('claims no reasoning the template does not make room for', () => {
    expect(reasoningSentence({ reasons: false, canDisable: false })).toBe('Answers without reasoning.');
    expect(reasoningSentence({ reasons: true, canDisable: true })).toMatch(/can reason before it answers; thinking can be switched off/);
    expect(reasoningSentence({ reasons: true, canDisable: true })).not.toMatch(/^Reasons before it answers/);
  });

  it('knows the embedded demo model, as a folder or its GGUF file, and nothing else', () => {
    const loaded = (kind: 'onnx' | 'gguf' | 'openai', source: string) => ({ kind, source, modelId: 'm' }) as never;
    const defaultModelPath = '/opt/worldloom/resources/models/worldloom-nano';
    expect(isEmbeddedModel({ loaded: loaded('onnx', defaultModelPath), defaultModelPath })).toBe(true);
    expect(isEmbeddedModel({ loaded: loaded('gguf', `${defaultModelPath}/worldloom-nano.gguf`), defaultModelPath })).toBe(true);
    expect(isEmbeddedModel({ loaded: loaded('onnx', '/opt/worldloom/resources/models/worldloom-nano-v2'), defaultModelPath })).toBe(false);
    expect(isEmbeddedModel({ loaded: loaded('gguf', '/m/Qwen-AgentWorld-35B-A3B-Q4_K_M.gguf'), defaultModelPath })).toBe(false);
    expect(isEmbeddedModel({ loaded: null, defaultModelPath })).toBe(false);
    expect(isEmbeddedModel({ loaded: loaded('onnx', defaultModelPath), defaultModelPath: null })).toBe(false);
  });
});
