import { DEVICE_CHOICES, DEVICE_LABELS, type DeviceChoice } from '../../../../src-main/common/device';

/**
 * Where an in-process model runs (the CLI's --device). Automatic skips software GPU adapters
 * (llvmpipe), which run a model far slower than the CPU; naming WebGPU uses one anyway.
 */
export function DeviceChooser({ value, onChange }: { value: DeviceChoice; onChange: (device: DeviceChoice) => void }) {
  return (
    <label>
      Device (for a model run in this process; the loaded model lists what was tried and why)
      <select value={value} onChange={(e) => onChange(e.target.value as DeviceChoice)} data-testid="model-device">
        {DEVICE_CHOICES.map((device) => (
          <option key={device} value={device}>
            {DEVICE_LABELS[device]}
          </option>
        ))}
      </select>
    </label>
  );
}
