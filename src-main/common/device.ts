// Where an in-process engine runs the model: one choice for every engine (ONNX, GGUF), from
// the CLI's --device, the model panel and the contract's ModelSpec. Each engine maps it onto
// what it has (the ONNX engine: execution providers; the GGUF engine: llama.cpp backends).

export const DEVICE_CHOICES = ['auto', 'cpu', 'cuda', 'webgpu', 'vulkan', 'metal'] as const;
export type DeviceChoice = (typeof DEVICE_CHOICES)[number];

/** One line per choice, for the CLI's help and the model panel's chooser. */
export const DEVICE_LABELS: Record<DeviceChoice, string> = {
  auto: 'Automatic: the fastest hardware device found, else the CPU (software GPU adapters are skipped)',
  cpu: 'CPU',
  cuda: 'CUDA (NVIDIA)',
  webgpu: 'WebGPU (Vulkan, D3D12 or Metal through Dawn)',
  vulkan: 'Vulkan',
  metal: 'Metal (macOS)',
};
