/**
 * Plate XXVI.3, as the volume's editors wrote it: same words, same order, same numbers.
 * Only data here. Term and cross-reference pieces mark words already in the text; they add none.
 */
import type { PlateText } from './types';

export const PLATE: PlateText = {
  id: 'XXVI.3',
  header: {
    volume: 'Vol. XXVI · Training Agents',
    position: 'Plate 3 of 10',
    keywords: ['multi-turn RL', 'agent RL', 'GRPO', 'outcome reward', 'episodes', 'tool results', 'policy gradient'],
  },
  title: 'Multi-Turn RL.',
  lede: 'Run the whole episode, score the end, and push up every action of the episodes that scored well.',
  body: [
    [
      'Reinforcement learning extends to agents with one change: an episode is not one reply but ',
      { kind: 'term', term: 'multi-turn-rl', text: 'a sequence of turns' },
      ', with the environment’s observations inserted between the model’s actions. The model samples actions; the harness runs the tools and appends their results; at the end ',
      { kind: 'term', term: 'outcome-reward', text: 'a grader scores the outcome' },
      '. GRPO (',
      { kind: 'ref', ref: 'XIX.5', text: 'plate XIX.5' },
      ') then compares the episodes sampled for the same task: each one’s advantage is ',
      { kind: 'term', term: 'group-relative-advantage', text: 'its reward relative to the group' },
      ', applied to every character the model wrote — and ',
      { kind: 'term', term: 'observation-masking', text: 'to none of the characters the environment wrote' },
      ', which were not the model’s choices.',
    ],
    [
      'The tool world of this part: the character model of ',
      { kind: 'ref', ref: 'XVII', text: 'Vol. XVII' },
      ', pre-trained only on single-digit worksheets, is fine-tuned in the page to call a calculator — it writes “B23+45|”, the environment appends the result “68|”, and the model answers “68|”. The workshop starts from the agent fine-tuned on 30 demonstrations and runs GRPO on the 70 training sums — 8 sums per step, 8 episodes per sum, sampled at temperature 1 — rewarding an exact final answer, with a reliable calculator or one that is wrong 30% of the time.',
    ],
  ],
  caption:
    'Below: held-out success during training and the mean reward of the sampled episodes; readouts give the start and end.',
  whatYouWillLearn: 'What you will learn',
  workshop: {
    heading: 'Workshop',
    text: [
      'GRPO from the agent fine-tuned on 30 demonstrations (200 steps): 40 steps of 8 training sums × 8 episodes at temperature 1, learning rate 0.0003, clipped ratio, loss on the model’s own characters. Reward 1 for an exact final answer. Held-out success on 30 sums, greedy, with a reliable calculator. A faulty calculator returns a wrong result 30% of the time during training.',
    ],
  },
  longerEpisode: {
    heading: 'The same algorithm, a longer episode',
    paragraphs: [
      [
        'From the fine-tuned agent at 77% on held-out sums, 40 GRPO steps bring it to 83%; the sampled episodes, drawn at temperature 1 and so noisier than greedy decoding, earn 81% of the reward by the end. With a calculator that is wrong 30% of the time during training, the reward the policy sees is capped well below — 50% — because no action can fix the tool’s error, and the held-out result moves to 83%. Noise in the environment is noise in the gradient.',
      ],
      [
        'Large agentic RL runs follow this pattern at vastly greater scale: episodes of hundreds of turns in code repositories, browsers or terminals, graded by tests or task checkers, with the same ',
        { kind: 'term', term: 'observation-masking', text: 'masking of observations' },
        ' and the same ',
        { kind: 'term', term: 'group-relative-advantage', text: 'group-relative advantages' },
        '. The difficulties grow with the episode: rewards become sparser (',
        { kind: 'ref', ref: 'XXVI.7', text: 'plate XXVI.7' },
        '), credit for one good decision is spread over every action (',
        { kind: 'ref', ref: 'XXVI.4', text: 'plate XXVI.4' },
        '), and sampling episodes becomes the dominant cost of training (',
        { kind: 'ref', ref: 'XXVI.8', text: 'plate XXVI.8' },
        ').',
      ],
      [
        'The environment is part of the training system: its speed limits the sampling rate, its bugs become rewards, and its randomness enters every gradient. Building it well is the subject of ',
        { kind: 'ref', ref: 'XXVII', text: 'Vol. XXVII' },
        '.',
      ],
    ],
  },
  terms: {
    heading: 'Terms',
    items: [
      {
        id: 'multi-turn-rl',
        name: 'Multi-turn RL',
        definition: 'Reinforcement learning over episodes of several actions and observations.',
      },
      { id: 'outcome-reward', name: 'Outcome reward', definition: 'A score given only at the end of the episode.' },
      {
        id: 'group-relative-advantage',
        name: 'Group-relative advantage',
        definition: 'An episode’s reward compared with others for the same task.',
      },
      {
        id: 'observation-masking',
        name: 'Observation masking',
        definition: 'Applying the policy gradient only to the model’s own tokens.',
      },
    ],
  },
  takeaway: {
    heading: 'Takeaway',
    text: [
      'Multi-turn RL samples whole episodes, scores the outcome and updates the model’s own actions; a noisy environment caps what it can learn from.',
    ],
  },
  sources: {
    heading: 'Sources',
    items: [
      [
        'Shao et al., “DeepSeekMath” (GRPO), ',
        { kind: 'link', href: 'https://arxiv.org/abs/2402.03300', text: 'arXiv:2402.03300' },
        ', 2024.',
      ],
      [
        'Zhou et al., ',
        {
          kind: 'link',
          href: 'https://arxiv.org/abs/2402.19446',
          text: '“ArCHer: Training Language Model Agents via Hierarchical Multi-Turn RL”',
        },
        ', ICML 2024.',
      ],
      [
        'Kimi Team, “Kimi K2: Open Agentic Intelligence”, ',
        { kind: 'link', href: 'https://arxiv.org/abs/2507.20534', text: 'arXiv:2507.20534' },
        ', 2025 (large-scale agentic RL).',
      ],
    ],
  },
  numbers: {
    heading: 'The numbers the plate states',
    rows: [
      {
        readout: 'held-out success of the fine-tuned agent (start)',
        plate: '77% (23 of 30)',
        chart: 'heldOut',
        calculator: 'reliable',
        step: 0,
        value: 23 / 30,
      },
      {
        readout: 'held-out success after 40 GRPO steps, reliable calculator',
        plate: '83% (25 of 30)',
        chart: 'heldOut',
        calculator: 'reliable',
        step: 40,
        value: 25 / 30,
      },
      {
        readout: 'mean reward of the sampled episodes at the end, reliable',
        plate: '81%',
        chart: 'reward',
        calculator: 'reliable',
        step: 40,
        value: 0.81,
      },
      {
        readout: 'mean reward of the sampled episodes, faulty calculator',
        plate: 'capped near 50%',
        chart: 'reward',
        calculator: 'faulty',
        step: 40,
        value: 0.5,
      },
      {
        readout: 'held-out success after 40 GRPO steps, faulty calculator',
        plate: '83%',
        chart: 'heldOut',
        calculator: 'faulty',
        step: 40,
        value: 25 / 30,
      },
    ],
  },
};
