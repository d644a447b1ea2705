import { describe, expect, it } from 'vitest';
import { faultyCalculator, LIE_OFFSETS, reliableCalculator } from '../../src/env/calculator';
import { EPISODES, longestEpisode } from '../../src/env/episode';
import { drawSplit, OPERAND_MAX, OPERAND_MIN, SPLIT, sumKey } from '../../src/env/sums';
import { AGENT_CHOICES, AGENTS, agentOf, agentRefusal, WORLDS } from '../../src/env/world';
import { WORKSHEET_OPERAND_MAX, worksheetLine, worksheetRow } from '../../src/env/worksheets';
import { createRng, type Rng } from '../../src/lib/rng';
import { encode, VOCAB } from '../../src/model/vocab';

describe('the vocabulary', () => {
  it('round-trips every transcript character', () => {
    const text = '^23+45=B23+45|68|68|...';
    expect(
      encode(text)
        .map((id) => VOCAB[id])
        .join(''),
    ).toBe(text);
    expect(encode(VOCAB)).toEqual([...VOCAB].map((_, i) => i));
  });

  it('throws on an unknown character, naming it', () => {
    expect(() => encode('23-45')).toThrow(/"-"/);
  });
});

describe('the sums', () => {
  const keys = (xs: { a: number; b: number }[]) => new Set(xs.map(sumKey));

  it('split 100 distinct two-digit sums into 70 training and 30 held-out, disjoint', () => {
    expect(SPLIT.train).toHaveLength(70);
    expect(SPLIT.heldOut).toHaveLength(30);
    expect(keys([...SPLIT.train, ...SPLIT.heldOut]).size).toBe(100);
    for (const s of [...SPLIT.train, ...SPLIT.heldOut]) {
      for (const x of [s.a, s.b]) expect(x >= OPERAND_MIN && x <= OPERAND_MAX).toBe(true);
    }
  });

  it('take the 30 demonstrations from the training sums and leave the other 40 for validation', () => {
    const train = keys(SPLIT.train);
    expect(SPLIT.demonstrations).toHaveLength(30);
    expect(SPLIT.validation).toHaveLength(40);
    for (const s of SPLIT.demonstrations) expect(train.has(sumKey(s))).toBe(true);
    expect(keys([...SPLIT.demonstrations, ...SPLIT.validation])).toEqual(train);
  });

  it('are exactly what the committed generator draws from the committed seed', () => {
    expect(drawSplit(SPLIT.seed)).toEqual(SPLIT);
  });
});

describe('the worksheets', () => {
  it('hold only single-digit operands, in rows that fit the context', () => {
    const rng = createRng(3);
    for (let i = 0; i < 200; i++) {
      const row = worksheetRow(rng, 32, i % 2 ? 'plain' : 'restate');
      expect(row.length).toBeLessThanOrEqual(32);
      expect(row[0]).toBe('^');
      for (const m of row.matchAll(/(\d+)\+(\d+)=/g)) {
        expect(Number(m[1])).toBeLessThanOrEqual(WORKSHEET_OPERAND_MAX);
        expect(Number(m[2])).toBeLessThanOrEqual(WORKSHEET_OPERAND_MAX);
      }
    }
  });

  it('write plain and restating lines', () => {
    expect(worksheetLine(3, 4, 'plain')).toBe('3+4=7|');
    expect(worksheetLine(9, 8, 'restate')).toBe('9+8=9+8|17|');
    expect(() => worksheetLine(10, 1, 'plain')).toThrow(/single digits/);
  });
});

describe('the calculator', () => {
  it('is always right when reliable', () => {
    expect(reliableCalculator(23, 45)).toEqual({ value: 68, lied: false });
  });

  it('lies about 30% of the time when faulty, and never returns the true sum when it lies', () => {
    let lies = 0;
    let draws = 0;
    for (let seed = 0; seed < 20; seed++) {
      const calc = faultyCalculator(createRng(seed), 0.3);
      for (let i = 0; i < 500; i++) {
        const a = 10 + (i % 90);
        const b = 99 - (i % 90);
        const r = calc(a, b);
        draws++;
        if (r.lied) {
          lies++;
          expect(r.value).not.toBe(a + b);
          expect(r.value).toBeGreaterThanOrEqual(0);
          expect(Math.abs(r.value - (a + b))).toBeLessThanOrEqual(10);
        } else {
          expect(r.value).toBe(a + b);
        }
      }
    }
    expect(lies / draws).toBeGreaterThan(0.28);
    expect(lies / draws).toBeLessThan(0.32);
  });

  it('flips a lie that would go below zero, so a small sum still gets a plausible wrong result', () => {
    // A stream that always lies, with the offset −10 (the first of LIE_OFFSETS).
    const lying: Rng = { next: () => 0, int: () => LIE_OFFSETS.indexOf(-10), seed: () => 0 };
    expect(faultyCalculator(lying, 0.3)(0, 3)).toEqual({ value: 13, lied: true });
    expect(faultyCalculator(lying, 0.3)(23, 45)).toEqual({ value: 58, lied: true });
  });

  it('replays the same lies for the same seed', () => {
    const run = (seed: number) => {
      const calc = faultyCalculator(createRng(seed), 0.3);
      return Array.from({ length: 50 }, () => calc(40, 2).value);
    };
    expect(run(7)).toEqual(run(7));
    expect(run(7)).not.toEqual(run(8));
  });
});

describe('the worlds and their agents', () => {
  it('give the three-call agent every length — two calls’ own agent too — and the plate’s agent one call', () => {
    expect(AGENTS['three-calls'].plays).toEqual(['one-call', 'two-calls', 'three-calls']);
    expect(AGENTS['one-call'].plays).toEqual(['one-call']);
    expect(EPISODES.map((e) => WORLDS[e].agent)).toEqual(['one-call', 'three-calls', 'three-calls']);
    for (const episode of EPISODES) {
      expect(agentRefusal({ episode, agent: 'three-calls' })).toBeNull();
      expect(agentRefusal({ episode, agent: 'own' })).toBeNull();
    }
  });

  it('fit every world an agent plays in its context', () => {
    for (const agent of Object.values(AGENTS))
      for (const episode of agent.plays)
        expect(agent.context).toBeGreaterThanOrEqual(longestEpisode(WORLDS[episode].calls));
    expect([AGENTS['one-call'].context, AGENTS['three-calls'].context]).toEqual([32, 64]);
  });

  it('refuse the one-call agent at two and three calls, saying why in words', () => {
    expect(agentRefusal({ episode: 'two-calls', agent: 'one-call' })).toBe(
      'the one-call agent cannot play two-call sums: it was fine-tuned on one-call sums only, and its context of 32 characters is shorter than the two-calls world’s longest episode, 43',
    );
    expect(agentRefusal({ episode: 'three-calls', agent: 'one-call' })).toBe(
      'the one-call agent cannot play three-call sums: it was fine-tuned on one-call sums only, and its context of 32 characters is shorter than the three-calls world’s longest episode, 60',
    );
    expect(agentRefusal({ episode: 'one-call', agent: 'one-call' })).toBeNull();
  });

  it('name each agent once: own, the one-call agent, the three-call agent — and own resolves to the world’s', () => {
    expect(AGENT_CHOICES).toEqual(['own', 'one-call', 'three-calls']);
    expect(agentOf({ episode: 'one-call', agent: 'own' })).toBe('one-call');
    expect(agentOf({ episode: 'two-calls', agent: 'own' })).toBe('three-calls');
    expect(agentOf({ episode: 'three-calls', agent: 'own' })).toBe('three-calls');
    expect(agentOf({ episode: 'one-call', agent: 'three-calls' })).toBe('three-calls');
  });
});
