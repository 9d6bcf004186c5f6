import { BRANDS } from '@hunktube/shared';
import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { ApiError } from '@/lib/api/client';
import { useSite } from '@/lib/site';
import type { AdKind, AdPlacement, AdZone, CreateAdZone, UpdateAdZone } from '../api/ad-types';
import { useCreateAdZone, useUpdateAdZone } from '../api/ad-zones';
import { KIND_LABELS, kindsFor, PLACEMENTS } from './ad-zone-rules';
import { ChipList } from './chip-list';
import { failureText } from './taxonomy-section';

const NAME_MAX = 80;
const VAST_URL_MAX = 2048;
const HTML_MAX = 20_000;
const HOSTS_MAX = 20;

/** The form's fields as typed: numbers stay text until sent, so that a half-typed one is not rewritten. */
interface Draft {
  name: string;
  placement: AdPlacement;
  kind: AdKind;
  vastUrl: string;
  html: string;
  hosts: string[];
  brands: string[];
  members: boolean;
  embeds: boolean;
  skippable: boolean;
  skipAfter: string;
  capped: boolean;
  capCount: string;
  capHours: string;
  weight: string;
  active: boolean;
}

function draftOf(zone: AdZone | null, brand: string): Draft {
  if (!zone) {
    return {
      name: '',
      placement: 'preroll',
      kind: 'vast',
      vastUrl: '',
      html: '',
      hosts: [],
      brands: [brand],
      members: false,
      embeds: false,
      skippable: true,
      skipAfter: '5',
      capped: false,
      capCount: '3',
      capHours: '24',
      weight: '1',
      active: true,
    };
  }
  return {
    name: zone.name,
    placement: zone.placement,
    kind: zone.kind,
    vastUrl: zone.vastUrl ?? '',
    html: zone.html ?? '',
    hosts: zone.hosts,
    brands: zone.brands,
    members: zone.members,
    embeds: zone.embeds,
    skippable: zone.skipAfter !== null,
    skipAfter: String(zone.skipAfter ?? 5),
    capped: zone.frequencyCap !== null,
    capCount: String(zone.frequencyCap?.count ?? 3),
    capHours: String(zone.frequencyCap?.hours ?? 24),
    weight: String(zone.weight),
    active: zone.active,
  };
}

/** The zone the form describes, as the API takes it: the other kind's fields null, as docs/ads.md has them. */
function bodyOf(draft: Draft): CreateAdZone {
  const vast = draft.kind === 'vast';
  return {
    name: draft.name.trim(),
    placement: draft.placement,
    kind: draft.kind,
    vastUrl: vast ? draft.vastUrl.trim() : null,
    html: vast ? null : draft.html,
    hosts: draft.hosts,
    // In the order the boxes are, whatever order they were ticked in.
    brands: BRANDS.filter((brand) => draft.brands.includes(brand)),
    members: draft.members,
    embeds: draft.embeds,
    skipAfter: vast && draft.skippable ? Number(draft.skipAfter) : null,
    frequencyCap: draft.capped ? { count: Number(draft.capCount), hours: Number(draft.capHours) } : null,
    weight: Number(draft.weight),
    active: draft.active,
  };
}

function same(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((item, i) => same(item, b[i]));
  if (a && b && typeof a === 'object' && typeof b === 'object') {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((key) => same((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]));
  }
  return a === b;
}

/** The fields of `body` that differ from the zone's: what a PATCH sends (brands compared as a set). */
function changedFields(zone: AdZone, body: CreateAdZone): UpdateAdZone {
  const changes: Record<string, unknown> = {};
  for (const key of Object.keys(body) as (keyof CreateAdZone)[]) {
    const before = key === 'brands' ? [...zone.brands].sort() : zone[key];
    const after = key === 'brands' ? [...body.brands].sort() : body[key];
    if (!same(before, after)) changes[key] = body[key];
  }
  return changes as UpdateAdZone;
}

const FIELDS: readonly (keyof CreateAdZone)[] = [
  'name',
  'placement',
  'kind',
  'vastUrl',
  'html',
  'hosts',
  'brands',
  'members',
  'embeds',
  'skipAfter',
  'frequencyCap',
  'weight',
  'active',
];

/** The field a 400 names ("weight must be…", "frequencyCap.count must be…", "each of hosts must be…"), when it is one of the zone's. */
function fieldNamed(message: string): keyof CreateAdZone | null {
  const first = /^(?:each of )?([a-zA-Z]+)/.exec(message)?.[1];
  return FIELDS.find((field) => field === first) ?? null;
}

/** A host as the API takes it (`https://host[:port]`, `http://…`): a URL's origin, or null for anything else. */
function hostOf(text: string): string | null {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return null;
  }
  const bare = url.pathname === '/' && !url.search && !url.hash && !url.username && !url.password;
  return (url.protocol === 'https:' || url.protocol === 'http:') && bare ? url.origin : null;
}

interface Problem {
  message: string;
  field: keyof CreateAdZone | null;
}

interface AdZoneFormProps {
  /** The zone to edit; null for a new one. */
  zone: AdZone | null;
  /** Saved (or nothing to save): what to tell the admin. */
  onDone: (message: string) => void;
  onCancel: () => void;
}

/**
 * Creates or edits an ad zone with every field of docs/ads.md. The kinds offered follow the placement; the VAST
 * tag or the snippet follows the kind. An edit sends only the fields that changed; the API's refusal (400 naming
 * the field) shows beside the buttons, and the field it names is marked.
 */
export function AdZoneForm({ zone, onDone, onCancel }: AdZoneFormProps) {
  const id = useId();
  const site = useSite();
  const create = useCreateAdZone();
  const update = useUpdateAdZone();
  const [draft, setDraft] = useState(() => draftOf(zone, site.data?.brand ?? 'default'));
  const [problem, setProblem] = useState<Problem | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const pending = create.isPending || update.isPending;

  // Opened from a row or the New zone button: the form is where the admin goes next.
  useEffect(() => heading.current?.focus(), []);

  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => setDraft((current) => ({ ...current, [key]: value }));

  const choosePlacement = (placement: AdPlacement) => {
    const kinds = kindsFor(placement);
    setDraft((current) => ({ ...current, placement, kind: kinds.includes(current.kind) ? current.kind : kinds[0] }));
  };

  const failed = (error: unknown) => {
    if (error instanceof ApiError && error.statusCode === 404) {
      setProblem({ message: 'This zone no longer exists.', field: null });
      return;
    }
    const message = failureText(error, 'The zone could not be saved.');
    setProblem({ message, field: error instanceof ApiError && error.statusCode === 400 ? fieldNamed(message) : null });
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const body = bodyOf(draft);
    if (!body.name) {
      setProblem({ message: 'Enter a name.', field: 'name' });
      return;
    }
    if (body.brands.length === 0) {
      setProblem({ message: 'Pick at least one brand.', field: 'brands' });
      return;
    }
    setProblem(null);
    if (!zone) {
      create.mutate(body, { onSuccess: (created) => onDone(`Created the zone “${created.name}”.`), onError: failed });
      return;
    }
    const changes = changedFields(zone, body);
    if (Object.keys(changes).length === 0) {
      onDone(`Nothing changed in the zone “${zone.name}”.`);
      return;
    }
    update.mutate({ id: zone.id, changes }, { onSuccess: (saved) => onDone(`Saved the zone “${saved.name}”.`), onError: failed });
  };

  /** Marks the field the API refused and points it at the reason. */
  const invalid = (field: keyof CreateAdZone) =>
    problem?.field === field ? { 'aria-invalid': true as const, 'aria-describedby': `${id}-problem` } : {};

  const kinds = kindsFor(draft.placement);

  return (
    <section className="edit-video__section ad-form" aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`} ref={heading} tabIndex={-1}>
        {zone ? `Edit the zone “${zone.name}”` : 'New ad zone'}
      </h2>
      <form className="ad-form__fields" onSubmit={onSubmit} noValidate>
        <div className="field">
          <label htmlFor={`${id}-name`}>Name</label>
          <input
            id={`${id}-name`}
            value={draft.name}
            onChange={(event) => set('name', event.target.value)}
            maxLength={NAME_MAX}
            autoComplete="off"
            {...invalid('name')}
          />
        </div>

        <div className="field">
          <label htmlFor={`${id}-placement`}>Placement</label>
          <select id={`${id}-placement`} value={draft.placement} onChange={(event) => choosePlacement(event.target.value as AdPlacement)} {...invalid('placement')}>
            {PLACEMENTS.map((placement) => (
              <option key={placement.value} value={placement.value}>
                {placement.label}
              </option>
            ))}
          </select>
        </div>

        <fieldset className="ad-form__group ad-form__wide" aria-describedby={`${id}-kind-hint`}>
          <legend>Kind</legend>
          <div className="ad-form__choices">
            {(['vast', 'html'] as const).map((kind) => (
              <label key={kind} className="ad-form__check">
                <input
                  type="radio"
                  name={`${id}-kind`}
                  value={kind}
                  checked={draft.kind === kind}
                  disabled={!kinds.includes(kind)}
                  onChange={() => set('kind', kind)}
                  {...invalid('kind')}
                />
                {KIND_LABELS[kind]}
              </label>
            ))}
          </div>
          <p className="edit-video__hint" id={`${id}-kind-hint`}>
            Pre- and post-rolls play a VAST tag, banners show an HTML snippet, a pause ad either.
          </p>
        </fieldset>

        {draft.kind === 'vast' ? (
          <div className="field ad-form__wide">
            <label htmlFor={`${id}-vast`}>VAST tag URL</label>
            <input
              id={`${id}-vast`}
              type="url"
              inputMode="url"
              value={draft.vastUrl}
              onChange={(event) => set('vastUrl', event.target.value)}
              maxLength={VAST_URL_MAX}
              autoComplete="off"
              spellCheck={false}
              {...invalid('vastUrl')}
            />
          </div>
        ) : (
          <div className="field ad-form__wide">
            <label htmlFor={`${id}-html`}>HTML snippet</label>
            <textarea
              id={`${id}-html`}
              rows={6}
              value={draft.html}
              onChange={(event) => set('html', event.target.value)}
              maxLength={HTML_MAX}
              spellCheck={false}
              aria-describedby={problem?.field === 'html' ? `${id}-problem` : `${id}-html-hint`}
              aria-invalid={problem?.field === 'html' ? true : undefined}
            />
            <span className="field__hint" id={`${id}-html-hint`}>
              Shown in a sandboxed frame of its own, labelled “Advertisement”.
            </span>
          </div>
        )}

        {draft.kind === 'vast' && (
          <fieldset className="ad-form__group">
            <legend>Skip</legend>
            <div className="field">
              <label htmlFor={`${id}-skip`}>Skip button after (seconds)</label>
              <input
                id={`${id}-skip`}
                type="number"
                min={0}
                max={300}
                value={draft.skipAfter}
                disabled={!draft.skippable}
                onChange={(event) => set('skipAfter', event.target.value)}
                {...invalid('skipAfter')}
              />
            </div>
            <Check checked={!draft.skippable} onChange={(on) => set('skippable', !on)}>
              Not skippable
            </Check>
          </fieldset>
        )}

        <fieldset className="ad-form__group">
          <legend>Frequency cap</legend>
          <Check checked={draft.capped} onChange={(on) => set('capped', on)}>
            Cap how often one viewer sees it
          </Check>
          {draft.capped && (
            <div className="ad-form__pair">
              <div className="field">
                <label htmlFor={`${id}-cap-count`}>At most (impressions)</label>
                <input
                  id={`${id}-cap-count`}
                  type="number"
                  min={1}
                  max={100}
                  value={draft.capCount}
                  onChange={(event) => set('capCount', event.target.value)}
                  {...invalid('frequencyCap')}
                />
              </div>
              <div className="field">
                <label htmlFor={`${id}-cap-hours`}>Per (hours)</label>
                <input
                  id={`${id}-cap-hours`}
                  type="number"
                  min={1}
                  max={720}
                  value={draft.capHours}
                  onChange={(event) => set('capHours', event.target.value)}
                  {...invalid('frequencyCap')}
                />
              </div>
            </div>
          )}
        </fieldset>

        <div className="field">
          <label htmlFor={`${id}-weight`}>Weight</label>
          <input
            id={`${id}-weight`}
            type="number"
            min={1}
            max={100}
            value={draft.weight}
            onChange={(event) => set('weight', event.target.value)}
            aria-describedby={problem?.field === 'weight' ? `${id}-problem` : `${id}-weight-hint`}
            aria-invalid={problem?.field === 'weight' ? true : undefined}
          />
          <span className="field__hint" id={`${id}-weight-hint`}>
            1 to 100: among the zones that fit one slot, each is picked in proportion to its weight.
          </span>
        </div>

        <fieldset className="ad-form__group">
          <legend>Brands</legend>
          {BRANDS.map((brand) => (
            <Check
              key={brand}
              checked={draft.brands.includes(brand)}
              onChange={(on) => set('brands', on ? [...draft.brands, brand] : draft.brands.filter((b) => b !== brand))}
              invalid={problem?.field === 'brands' ? `${id}-problem` : undefined}
            >
              {brand}
              {brand === site.data?.brand && ` (this site: ${site.data.name})`}
            </Check>
          ))}
        </fieldset>

        <fieldset className="ad-form__group">
          <legend>Who sees it</legend>
          <Check checked={draft.members} onChange={(on) => set('members', on)}>
            Members too (otherwise guests only)
          </Check>
          <Check checked={draft.embeds} onChange={(on) => set('embeds', on)}>
            In embeds (the embeddable player and framed pages)
          </Check>
          <Check checked={draft.active} onChange={(on) => set('active', on)}>
            Active
          </Check>
        </fieldset>

        <AdHosts hosts={draft.hosts} onChange={(hosts) => set('hosts', hosts)} invalid={problem?.field === 'hosts' ? `${id}-problem` : undefined} />

        {problem && (
          <p className="form-error ad-form__wide" id={`${id}-problem`} role="alert">
            {problem.message}
          </p>
        )}
        <div className="ad-form__buttons ad-form__wide">
          <button className="button button--quiet" type="button" onClick={onCancel}>
            Cancel
          </button>
          <button className="button" type="submit" disabled={pending}>
            {pending ? 'Saving…' : zone ? 'Save changes' : 'Create zone'}
          </button>
        </div>
      </form>
    </section>
  );
}

interface CheckProps {
  checked: boolean;
  onChange: (checked: boolean) => void;
  /** The id of the reason the API refused it. */
  invalid?: string;
  children: ReactNode;
}

function Check({ checked, onChange, invalid, children }: CheckProps) {
  return (
    <label className="ad-form__check">
      <input
        type="checkbox"
        checked={checked}
        onChange={(event) => onChange(event.target.checked)}
        aria-invalid={invalid ? true : undefined}
        aria-describedby={invalid}
      />
      {children}
    </label>
  );
}

/** The further origins the zone's ads load from: a chip per host with its remove button, and a box to add one. */
function AdHosts({ hosts, onChange, invalid }: { hosts: string[]; onChange: (hosts: string[]) => void; invalid?: string }) {
  const [text, setText] = useState('');
  const [problem, setProblem] = useState<string | null>(null);

  const add = () => {
    if (!text.trim()) return;
    const host = hostOf(text);
    if (!host) setProblem(`“${text.trim()}” is not a host: write it as https://ads.example.com (a port may follow).`);
    else if (hosts.includes(host)) setProblem(`${host} is in the list already.`);
    else if (hosts.length >= HOSTS_MAX) setProblem(`A zone names at most ${HOSTS_MAX} hosts.`);
    else {
      onChange([...hosts, host]);
      setText('');
      setProblem(null);
    }
  };

  return (
    <ChipList
      className="ad-form__group ad-form__wide"
      legend="Ad hosts"
      label="Hosts of this zone"
      noun="host"
      items={hosts}
      keyOf={(host) => host}
      nameOf={(host) => host}
      empty="No further hosts."
      text={text}
      onTextChange={setText}
      onAdd={add}
      onRemove={(host) => onChange(hosts.filter((own) => own !== host))}
      problem={problem}
      invalid={Boolean(problem || invalid)}
      describedBy={invalid}
      input={{ type: 'url', inputMode: 'url', placeholder: 'https://cdn.ads.example', spellCheck: false }}
      hint={
        <>
          Where the zone’s ads load from besides the tag’s own host (creative CDNs, trackers): the site’s content
          security policy lets these in. {hosts.length} of {HOSTS_MAX}.
        </>
      }
    />
  );
}
