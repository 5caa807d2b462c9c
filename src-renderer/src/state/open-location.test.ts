import { describe, expect, it } from 'vitest';
import { formatOpenLocation, parseOpenLocation } from './open-location';

describe('the open trajectory in the address', () => {
  it('reads back what it wrote, ids with any characters included', () => {
    const at = { trajectoryId: 'traj 1/ä&x', nodeId: '01a2-node' };
    expect(parseOpenLocation(formatOpenLocation(at))).toEqual(at);
    expect(parseOpenLocation(formatOpenLocation({ trajectoryId: 't', nodeId: null }))).toEqual({ trajectoryId: 't', nodeId: null });
  });

  it('names nothing when the address holds no trajectory', () => {
    expect(parseOpenLocation('')).toBeNull();
    expect(parseOpenLocation('#node=abc')).toBeNull();
    expect(formatOpenLocation(null)).toBe('');
  });
});
