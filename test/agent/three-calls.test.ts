// Making the three-call agent: the worksheet model's positions widened, fine-tuning on the
// demonstrations of every length (one, two and three calls, as the recipe says), scored in the
// three-call world.
import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { AGENT_RECIPE, AGENT_RECIPES, type AgentRecipe } from '../../src/config';
import { demonstrationsOf, SupervisedStage, worldsOf } from '../../src/agent/stage';
import { fineTuningStart, initialModel } from '../../src/agent/train';
import { demonstrationFor } from '../../src/env/episode';
import { SPLIT, THREE_CALL_SPLIT, TWO_CALL_SPLIT } from '../../src/env/sums';
import { AGENTS } from '../../src/env/world';
import { CharModel } from '../../src/model/gpt';
import { widenContext } from '../../src/model/widen';
import { encode } from '../../src/model/vocab';
import { TINY, useWasm } from '../tf';

beforeAll(useWasm);

const tiny = (r: AgentRecipe): AgentRecipe => ({
  ...r,
  model: TINY,
  pretrain: { ...r.pretrain, steps: 2, batch: 2 },
  sft: { ...r.sft, steps: 2, worksheetRows: 1 },
});

const logitsOf = (model: CharModel, text: string) =>
  tf.tidy(() => model.logits(tf.tensor2d([encode(text)], [1, text.length], 'int32')).arraySync());

describe('widening a model’s context', () => {
  it('keeps every logit of a transcript that fitted before, and adds positions after it', () => {
    const model = CharModel.create(TINY, 3);
    const text = demonstrationFor(SPLIT.train[0]!).text;
    const before = logitsOf(model, text);
    const wide = widenContext(model, 64, 7);
    expect(wide.config.context).toBe(64);
    expect(wide.params['wpe']!.shape).toEqual([64, TINY.dModel]);
    expect(logitsOf(wide, text)).toEqual(before);
    const long = demonstrationFor({ a: 99, b: 99, c: 99, d: 99 }).text;
    expect(() => logitsOf(wide, long)).not.toThrow();
    wide.dispose();
  });

  it('draws the new rows from its seed: the same seed the same rows, another seed others', () => {
    const rows = (seed: number) => {
      const wide = widenContext(CharModel.create(TINY, 3), 64, seed);
      const out = wide.params['wpe']!.slice([32, 0], [32, TINY.dModel]).arraySync();
      wide.dispose();
      return out;
    };
    expect(rows(7)).toEqual(rows(7));
    expect(rows(7)).not.toEqual(rows(8));
  });

  it('leaves a model of the context asked for as it is, and refuses to narrow one', () => {
    const model = CharModel.create(TINY, 3);
    expect(widenContext(model, 32, 1)).toBe(model);
    expect(() => widenContext(model, 16, 1)).toThrow(/a context of 16 cannot widen one of 32/);
    model.dispose();
  });
});

describe('fine-tuning the three-call agent', () => {
  it('starts from the worksheet model widened to the three-call agent’s context; the one-call agent from the worksheet model itself', () => {
    const worksheetModel = initialModel(tiny(AGENT_RECIPE), 1);
    expect(fineTuningStart(worksheetModel, tiny(AGENT_RECIPE), 1)).toBe(worksheetModel);
    const agent = fineTuningStart(worksheetModel, tiny(AGENT_RECIPES['three-calls']), 1);
    expect(agent.config.context).toBe(AGENTS['three-calls'].context);
    expect(agent.config.context).toBe(64);
    agent.dispose();
  });

  it('fine-tunes each agent on the demonstrations of exactly the worlds it is said to play', () => {
    for (const agent of Object.values(AGENTS))
      expect(worldsOf(AGENT_RECIPES[agent.name]).map((w) => w.episode)).toEqual(agent.plays);
  });

  it('shows the 30 demonstrations of each length, fewest calls first', () => {
    const texts = (r: AgentRecipe) => demonstrationsOf(r).map((d) => d.text);
    const r = AGENT_RECIPES['three-calls'];
    expect(r.sft.shorterDemonstrations).toBe(30);
    expect(worldsOf(r).map((w) => w.episode)).toEqual(['one-call', 'two-calls', 'three-calls']);
    expect(texts(r)).toEqual(
      [...SPLIT.demonstrations, ...TWO_CALL_SPLIT.demonstrations, ...THREE_CALL_SPLIT.demonstrations].map(
        (s) => demonstrationFor(s).text,
      ),
    );
    const alone = { ...r, sft: { ...r.sft, shorterDemonstrations: 0 } };
    expect(texts(alone)).toEqual(THREE_CALL_SPLIT.demonstrations.map((s) => demonstrationFor(s).text));
    // The one-call agent's fine-tuning is what it always was, whatever the field says.
    expect(texts({ ...AGENT_RECIPE, sft: { ...AGENT_RECIPE.sft, shorterDemonstrations: 30 } })).toEqual(
      SPLIT.demonstrations.map((s) => demonstrationFor(s).text),
    );
    expect(AGENT_RECIPES['one-call']).toBe(AGENT_RECIPE);
    expect(AGENT_RECIPE.episode).toBeUndefined(); // the shipped recipe, and its checkpoint's card, as before
  });

  it('is scored on the three-call world’s held-out sums', async () => {
    const r = tiny(AGENT_RECIPES['three-calls']);
    const model = fineTuningStart(initialModel(r, 1), r, 1);
    const stage = new SupervisedStage({ model, recipe: r, stage: 'sft', seed: 1, evalEvery: 0 });
    const first = await stage.initial();
    expect(first.heldOut!.n).toBe(THREE_CALL_SPLIT.heldOut.length);
    await stage.next();
    expect((await stage.next()).heldOut!.n).toBe(30);
    await stage.finish();
    model.dispose();
  });

  it('refuses a worksheet model that was not widened, naming the context it needs', () => {
    const r = tiny(AGENT_RECIPES['three-calls']);
    const model = initialModel(r, 1);
    expect(() => new SupervisedStage({ model, recipe: r, stage: 'sft', seed: 1, evalEvery: 0 })).toThrow(
      /fine-tuning the three-calls agent needs a context of 64, the model's is 32/,
    );
    model.dispose();
  });
});
