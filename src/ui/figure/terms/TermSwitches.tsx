/**
 * The switches that break the plate's terms — masking, the advantage, the grader, the
 * temperature — each undoing one idea the plate names; their words come from the settings table.
 */
import { SettingRadios, SettingSelect, SettingSwitch, settingControl, type SettingProps } from '../SettingControl';

/** The switches that undo one of the plate's terms each, to show what the term is for. */
export function TermSwitches(p: SettingProps) {
  return (
    <div className="term-switches">
      <p className="term-switches-note">
        Each switch undoes one idea the plate names, to show what it is for. Changed during a run, GRPO starts again
        from that run’s agent with it at the next step; otherwise it waits for Run or Step.
      </p>
      <div className="grpo-settings">
        <SettingSwitch {...settingControl(p, 'masking')} />
        <SettingRadios {...settingControl(p, 'advantage')} />
        <SettingSelect {...settingControl(p, 'grader')} className="grader" />
        <SettingSelect {...settingControl(p, 'temperature')} />
      </div>
    </div>
  );
}
