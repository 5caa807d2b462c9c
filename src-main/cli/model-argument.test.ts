// `--model` with `--device`: the spec each verb loads, and the refusals a user reads.
import { join } from 'node:path';
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { modelSpecFromArgument } from './model-argument';
import { deviceChoice } from './option-parsers';

describe('--device', () => {
  it('goes with a model folder into the spec the model is loaded from', () => {
    expect(modelSpecFromArgument('some/folder', { device: 'webgpu' })).toEqual({ kind: 'onnx', path: join(process.cwd(), 'some/folder'), device: 'webgpu' });
    expect(modelSpecFromArgument('some/folder')).toEqual({ kind: 'onnx', path: join(process.cwd(), 'some/folder') });
  });

  it('is refused for a server, which runs on its own devices', () => {
    expect(() => modelSpecFromArgument('http://127.0.0.1:8000/v1', { device: 'cuda' })).toThrow(/--device cuda .* is a server.*Leave --device out/);
    expect(modelSpecFromArgument('http://127.0.0.1:8000/v1#m', { device: 'auto' })).toEqual({ kind: 'openai', baseUrl: 'http://127.0.0.1:8000/v1', model: 'm' });
  });

  it('takes only the six choices', () => {
    expect(deviceChoice('vulkan')).toBe('vulkan');
    expect(() => deviceChoice('gpu')).toThrow('expected one of auto, cpu, cuda, webgpu, vulkan, metal');
  });

  it('is offered by every verb that takes --model, and a wrong value stops the verb with the choices', { timeout: 60_000 }, async () => {
    const program = new Command().exitOverride();
    const registers = await Promise.all([
      import('./commands/simulate').then((m) => m.registerSimulate),
      import('./commands/replay').then((m) => m.registerReplay),
      import('./commands/eval').then((m) => m.registerEval),
      import('./commands/serve').then((m) => m.registerServe),
      import('./commands/mcp-serve').then((m) => m.registerMcpServe),
      import('./commands/expand').then((m) => m.registerExpand),
      import('./commands/perturb').then((m) => m.registerPerturb),
      import('./commands/resample').then((m) => m.registerResample),
    ]);
    for (const register of registers) register(program);
    for (const verb of program.commands) {
      expect(verb.options.some((o) => o.long === '--model'), verb.name()).toBe(true);
      expect(verb.options.find((o) => o.long === '--device')?.description, verb.name()).toMatch(/auto\|cpu\|cuda\|webgpu\|vulkan\|metal/);
      expect(verb.options.find((o) => o.long === '--concurrency')?.description, verb.name()).toMatch(/requests the model works on at once/);
      expect(verb.options.find((o) => o.long === '--adapter')?.description, verb.name()).toMatch(/GGUF LoRA adapter applied over a \.gguf --model/);
    }
    const simulate = program.commands.find((c) => c.name() === 'simulate')!.exitOverride().configureOutput({ writeErr: () => {} });
    expect(() => simulate.parse(['-w', 'x.worldloom', '--node', 'n', '--action', 'ls', '--device', 'gpu'], { from: 'user' })).toThrow(
      /argument 'gpu' is invalid\. expected one of auto, cpu, cuda, webgpu, vulkan, metal/,
    );
  });
});

describe('--concurrency', () => {
  it('sets a server\'s requests in flight and a .gguf model\'s sequences, and leaves an ONNX folder as it is', () => {
    expect(modelSpecFromArgument('http://127.0.0.1:8000/v1#m', { concurrency: 32 })).toEqual({ kind: 'openai', baseUrl: 'http://127.0.0.1:8000/v1', model: 'm', concurrency: 32 });
    expect(modelSpecFromArgument('/models/q.gguf', { concurrency: 4 })).toMatchObject({ kind: 'gguf', concurrency: 4 });
    expect(modelSpecFromArgument('/models/folder', { concurrency: 4 })).not.toHaveProperty('concurrency');
  });
});

describe('--adapter', () => {
  it('goes with a .gguf model into its spec, and is refused for a folder or a server with what to pass', () => {
    expect(modelSpecFromArgument('/models/q.gguf', { adapter: 'tuned.gguf' })).toEqual({ kind: 'gguf', path: '/models/q.gguf', adapter: join(process.cwd(), 'tuned.gguf') });
    expect(() => modelSpecFromArgument('/models/folder', { adapter: 'tuned.gguf' })).toThrow(/--adapter .* over a \.gguf model, and \/models\/folder is not a \.gguf file.*Pass the base model's \.gguf file/);
    expect(() => modelSpecFromArgument('http://127.0.0.1:8000/v1', { adapter: 'tuned.gguf' })).toThrow(/is a server \(load the adapter there\)/);
  });
});
