'use client';

import { Button, Checkbox, Description, Form, Input, Label, Radio, RadioGroup, TextField } from '@heroui/react';
import { usePathname, useRouter } from 'next/navigation';
import { type FormEvent, useMemo, useState } from 'react';
import type { EligibilityCriterion, TrialArm, TrialCandidate, TrialExclusionReason } from '../contracts';
import { formatDate } from '@/lib/format';
import type { ActionResult } from '@/lib/server/action-result';
import { exclusionReasonLabels } from './trial-format';

/** The clinician's checklist answers every clinician-confirmed criterion; the server refuses any unconfirmed one in words. */
export type EnrolInput = { trialId: string; patientId: string; clinicianChecks: Record<string, boolean>; consentRecorded: boolean };
export type EnrolOutcome = { arm: TrialArm; enrolledOn: string; followUpEndsOn: string };
export type ExclusionInput = { trialId: string; patientId: string; reason: TrialExclusionReason; detail: string };

type Props = {
  trialId: string;
  /** The candidates as the server searched them (a pseudonym prefix, '' for the first ones). */
  candidates: TrialCandidate[];
  search: string;
  eligibility: EligibilityCriterion[];
  arms: Record<TrialArm, { label: string; description: string }>;
  enrol: (input: EnrolInput) => Promise<ActionResult<EnrolOutcome>>;
  exclude: (input: ExclusionInput) => Promise<ActionResult<unknown>>;
};

/** How many matches the picker lists at once: search narrows it (candidates can be thousands). */
const shownCandidates = 12;
const exclusionReasons = Object.keys(exclusionReasonLabels) as TrialExclusionReason[];

const meetsSystemChecks = (candidate: TrialCandidate) => candidate.systemChecks.every((check) => check.met);

type Confirmation = { pseudonym: string; outcome: EnrolOutcome };

/**
 * Assessment of one candidate: the system's checks as met or not, the clinician's items to confirm, consent,
 * then "Enrol and randomise". The arm is not known to the page before the server saved the enrolment
 * (allocation concealment); it is shown only in the confirmation. Or the candidate is excluded with a reason.
 */
export function EnrolmentPanel({ trialId, candidates, search: searched, eligibility, arms, enrol, exclude }: Props) {
  const router = useRouter();
  const pathname = usePathname();
  const [search, setSearch] = useState(searched);
  const [patientId, setPatientId] = useState<string | null>(null);
  const [confirmed, setConfirmed] = useState<string[]>([]);
  const [consent, setConsent] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [confirmation, setConfirmation] = useState<Confirmation | null>(null);
  const [excluded, setExcluded] = useState<string | null>(null);
  const [exclusion, setExclusion] = useState<{ reason: TrialExclusionReason | ''; detail: string }>({ reason: '', detail: '' });
  const [exclusionErrors, setExclusionErrors] = useState<Record<string, string>>({});

  // Those who meet every system check first: they are the ones who can be enrolled.
  const matches = useMemo(() => {
    const term = search.trim().toLowerCase();
    return candidates
      .filter((candidate) => candidate.pseudonym.toLowerCase().includes(term))
      .sort((a, b) => Number(meetsSystemChecks(b)) - Number(meetsSystemChecks(a)))
      .slice(0, shownCandidates);
  }, [candidates, search]);
  const candidate = candidates.find((entry) => entry.patientId === patientId) ?? null;
  const systemCriteria = eligibility.filter((criterion) => criterion.checkedBy === 'system');
  const clinicianCriteria = eligibility.filter((criterion) => criterion.checkedBy === 'clinician');
  const metOf = (criterionId: string) => candidate?.systemChecks.find((check) => check.criterionId === criterionId)?.met ?? false;
  const systemMet = candidate !== null && systemCriteria.every((criterion) => metOf(criterion.id));

  const choose = (id: string) => {
    setPatientId(id);
    setConfirmed([]);
    setConsent(false);
    setError(null);
    setExclusion({ reason: '', detail: '' });
    setExclusionErrors({});
  };

  const submitEnrolment = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (candidate === null) return;
    setBusy(true);
    setError(null);
    setConfirmation(null);
    setExcluded(null);
    const clinicianChecks = Object.fromEntries(clinicianCriteria.map((criterion) => [criterion.id, confirmed.includes(criterion.id)]));
    const result = await enrol({ trialId, patientId: candidate.patientId, clinicianChecks, consentRecorded: consent }).catch(() => null);
    setBusy(false);
    if (result === null) setError('We could not reach the server. No one was enrolled.');
    else if (!result.ok) setError(result.error.message);
    else {
      setConfirmation({ pseudonym: candidate.pseudonym, outcome: result.data });
      setPatientId(null);
      router.refresh();
    }
  };

  const submitExclusion = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (candidate === null) return;
    const errors: Record<string, string> = {};
    if (exclusion.reason === '') errors.reason = 'Reason: choose why the patient is excluded.';
    if (exclusion.reason === 'other' && exclusion.detail.trim() === '') errors.detail = 'Detail: say what the other reason is.';
    setExclusionErrors(errors);
    if (exclusion.reason === '' || Object.keys(errors).length > 0) return;
    setBusy(true);
    setError(null);
    setConfirmation(null);
    const result = await exclude({
      trialId,
      patientId: candidate.patientId,
      reason: exclusion.reason,
      detail: exclusion.detail.trim(),
    }).catch(() => null);
    setBusy(false);
    if (result === null) setError('We could not reach the server. The exclusion was not recorded.');
    else if (!result.ok) {
      setError(result.error.message);
      setExclusionErrors(result.error.fieldErrors ?? {});
    } else {
      setExcluded(`${candidate.pseudonym} was recorded as excluded: ${exclusionReasonLabels[exclusion.reason].toLowerCase()}.`);
      setPatientId(null);
      router.refresh();
    }
  };

  return (
    <section aria-labelledby="enrolment-heading" className="flex max-w-4xl flex-col gap-4" data-testid="trial-enrolment">
      <h2 id="enrolment-heading" className="text-xl font-semibold">
        Enrolment
      </h2>
      <p className="text-sm text-muted">
        Patients you may assess who are not yet in this trial{searched === '' ? '' : ` whose pseudonym starts with “${searched}”`} (
        {candidates.length} found). Choose one, go through the eligibility checklist and record consent; the arm is allocated by concealed
        permuted blocks when the enrolment is saved.
      </p>
      <Form
        role="search"
        aria-label="Search candidates"
        className="flex flex-wrap items-end gap-3"
        onSubmit={(event) => {
          event.preventDefault();
          const term = search.trim();
          router.push(term === '' ? pathname : `${pathname}?search=${encodeURIComponent(term)}`);
        }}
      >
        <TextField value={search} onChange={setSearch} className="w-72">
          <Label>Search candidates by pseudonym</Label>
          <Input />
          <Description>Narrows the list as you type; Search looks through all your patients.</Description>
        </TextField>
        <Button type="submit" variant="secondary">
          Search
        </Button>
      </Form>
      {matches.length === 0 ? (
        <p className="text-sm">No candidate matches “{search}”.</p>
      ) : (
        <RadioGroup value={patientId ?? ''} onChange={choose} className="flex flex-col gap-1" data-testid="trial-candidates">
          <Label>Candidate</Label>
          {matches.map((entry) => (
            <Radio key={entry.patientId} value={entry.patientId}>
              <Radio.Control>
                <Radio.Indicator />
              </Radio.Control>
              <Radio.Content>
                <Label>{entry.pseudonym}</Label>
                <Description>{meetsSystemChecks(entry) ? 'Meets the system’s checks' : 'Does not meet every system check'}</Description>
              </Radio.Content>
            </Radio>
          ))}
          {candidates.length > matches.length ? (
            <Description>Showing {matches.length} matches; type more of the pseudonym to narrow the list.</Description>
          ) : null}
        </RadioGroup>
      )}

      {confirmation === null ? null : (
        <div role="status" className="rounded-xl border-2 border-success bg-surface p-3 text-sm" data-testid="trial-enrolment-confirmation">
          <p className="font-medium">{confirmation.pseudonym} is enrolled and randomised.</p>
          <p>
            Allocated to: {arms[confirmation.outcome.arm].label} — {arms[confirmation.outcome.arm].description}
          </p>
          <p>
            Enrolled on {formatDate(confirmation.outcome.enrolledOn)}; follow-up ends on {formatDate(confirmation.outcome.followUpEndsOn)}.
          </p>
        </div>
      )}
      {excluded === null ? null : (
        <p role="status" className="text-sm">
          {excluded}
        </p>
      )}
      {error === null ? null : (
        <p role="alert" className="rounded-xl bg-danger-soft px-3 py-2 text-sm text-danger-soft-foreground">
          {error}
        </p>
      )}

      {candidate === null ? null : (
        <div className="flex flex-col gap-4 rounded-2xl border border-separator p-4" data-testid="trial-assessment">
          <h3 className="text-lg font-semibold">Assessing {candidate.pseudonym}</h3>
          <Form
            className="flex flex-col gap-3"
            aria-label={`Enrol ${candidate.pseudonym}`}
            onSubmit={(event) => void submitEnrolment(event)}
          >
            <h4 className="font-medium">Eligibility checklist</h4>
            <ul className="flex flex-col gap-1 text-sm" aria-label="Checked by the system">
              {systemCriteria.map((criterion) => (
                <li key={criterion.id}>
                  <span className={metOf(criterion.id) ? 'font-medium' : 'font-medium text-danger'}>
                    {metOf(criterion.id) ? 'Met' : 'Not met'}
                  </span>
                  : {criterion.text} <span className="text-muted">(checked by the system)</span>
                </li>
              ))}
            </ul>
            {clinicianCriteria.map((criterion) => (
              <Checkbox
                key={criterion.id}
                isSelected={confirmed.includes(criterion.id)}
                onChange={(selected) =>
                  setConfirmed((current) => (selected ? [...current, criterion.id] : current.filter((id) => id !== criterion.id)))
                }
              >
                <Checkbox.Control>
                  <Checkbox.Indicator />
                </Checkbox.Control>
                <Checkbox.Content>
                  <Label>{criterion.text}</Label>
                </Checkbox.Content>
              </Checkbox>
            ))}
            <Checkbox isSelected={consent} onChange={setConsent}>
              <Checkbox.Control>
                <Checkbox.Indicator />
              </Checkbox.Control>
              <Checkbox.Content>
                <Label>Consent recorded</Label>
                <Description>The patient has given informed consent to take part.</Description>
              </Checkbox.Content>
            </Checkbox>
            {systemMet ? null : (
              <p className="text-sm text-danger">
                The system’s checks are not all met: this patient cannot be enrolled; record an exclusion instead.
              </p>
            )}
            <div>
              <Button type="submit" isDisabled={busy || !systemMet}>
                Enrol and randomise
              </Button>
            </div>
          </Form>

          <Form
            className="flex flex-col gap-3 border-t border-separator pt-3"
            aria-label={`Exclude ${candidate.pseudonym}`}
            onSubmit={(event) => void submitExclusion(event)}
          >
            <h4 className="font-medium">Or record an exclusion</h4>
            <RadioGroup
              name="reason"
              value={exclusion.reason}
              onChange={(reason) => setExclusion((current) => ({ ...current, reason: reason as TrialExclusionReason }))}
              aria-required
            >
              <Label>Reason</Label>
              {exclusionReasons.map((reason) => (
                <Radio key={reason} value={reason}>
                  <Radio.Control>
                    <Radio.Indicator />
                  </Radio.Control>
                  <Radio.Content>
                    <Label>{exclusionReasonLabels[reason]}</Label>
                  </Radio.Content>
                </Radio>
              ))}
              {/* Errors as text in the description, not react-aria's invalid state (it blocked the corrected submit). */}
              <Description className="text-danger">{exclusionErrors.reason ?? ''}</Description>
            </RadioGroup>
            <TextField
              name="detail"
              value={exclusion.detail}
              onChange={(detail) => setExclusion((current) => ({ ...current, detail }))}
              className="w-full max-w-lg"
            >
              <Label>Detail</Label>
              <Input />
              <Description>
                Required for “Other reason”; no names or contact details.
                {exclusionErrors.detail === undefined ? null : <span className="block text-danger">{exclusionErrors.detail}</span>}
              </Description>
            </TextField>
            <div>
              <Button type="submit" variant="secondary" isDisabled={busy}>
                Record exclusion
              </Button>
            </div>
          </Form>
        </div>
      )}
    </section>
  );
}
