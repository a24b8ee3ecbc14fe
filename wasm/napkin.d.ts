// TypeScript declarations for the JS API (wasm/api.js): what `createNapkin()` resolves to, for
// node (build/wasm/napkin.js) and the page and embed (dist/napkin.d.ts). Every method answers a
// plain object; an error is a value (`{ error }`), never a throw, whatever it is given.
// tests/js/types.test.cjs compiles a program against these declarations with `tsc --strict`
// and runs it against the real module, so a shape that changes breaks the build.

// build/wasm/napkin.js is a UMD module: `module.exports = createNapkin` in node (require), and
// a global `createNapkin` where it is loaded as a classic script.
declare function createNapkin(options?: createNapkin.NapkinOptions): Promise<createNapkin.Napkin>;
declare namespace createNapkin {
  /** A failed call: which input, what is allowed. Tell it apart by `error` being an object
   * (parse's unreadable text answers `{ok: false, error: text}`). */
  interface NapkinError {
    code:
      | 'unknown_estimator'
      | 'unknown_input'
      | 'missing_input'
      | 'invalid_value'
      | 'out_of_range'
      | 'not_integer'
      | 'inconsistent'
      | 'invalid_argument'
      | 'unknown_problem'
      | 'not_loaded'
      | 'cancelled'
      | 'internal'
      | string;
    /** The input (or argument) at fault; null when none is. */
    input: string | null;
    message: string;
    value?: unknown;
    allowed?: string | null;
    id?: string;
  }
  interface Failed {
    error: NapkinError;
  }

  /** An input value: numbers in base SI units, text ("80 GB", "3.35 TB/s"), a choice, true/false. */
  type InputValue = number | string | boolean | null | object;
  type Inputs = Record<string, InputValue>;

  interface InputSpec {
    name: string;
    label: string;
    kind: 'number' | 'choice' | 'boolean' | 'text';
    /** The registry unit of the value ("B", "s", "FLOP/s", "frac", "" for a plain count). */
    unit: string;
    help: string;
    allowed: string;
    required: boolean;
    default: InputValue;
    example: InputValue;
    preset_key?: string;
    group?: string;
    min?: number;
    max?: number;
    min_exclusive?: boolean;
    integer?: boolean;
    choices?: string[];
    choice_labels?: string[];
  }

  interface OutputSpec {
    name: string;
    label: string;
    kind: 'number' | 'boolean' | 'text' | 'array';
    unit: string;
    help: string;
    /** Shown only when the inputs ask for it; absent from `outputs` otherwise (never 0). */
    optional?: boolean;
    hidden?: boolean;
  }

  interface Estimator {
    id: string;
    title: string;
    area: string;
    summary: string;
    citation: string;
    doc: string;
    inputs: InputSpec[];
    outputs: OutputSpec[];
  }

  interface Preset {
    id: string;
    label: string;
    /** "model", "gpu", "link", "precision" or "scenario". */
    kind: string;
    source: string;
    values: Record<string, InputValue>;
    /** The estimators a scenario preset is for (empty for models, GPUs and links). */
    estimators: string[];
  }

  interface Registry {
    estimators: Estimator[];
    charts: Array<Record<string, unknown> & { id: string; estimator: string }>;
    presets: Preset[];
    questions: Array<{ text: string; estimator: string; presets: string[] }>;
    scenario: { kinds: Array<{ kind: string; label: string; help: string }>; layout: InputSpec[] };
    search: Record<string, unknown>;
  }

  /** One step of a derivation: the formula, the numbers put in, the result; or a note. */
  interface Step {
    title: string;
    formula?: string;
    substituted?: string;
    result?: string;
    value?: number | null;
    unit?: string;
    text?: string;
    note?: string;
  }

  interface RunResult {
    id: string;
    /** Every input as the estimator used it, defaults included. */
    inputs: Record<string, InputValue>;
    /** Outputs in base SI units; an output that was not asked for is absent. */
    outputs: Record<string, number | boolean | string | unknown[]>;
    steps: Step[];
    warnings: string[];
  }

  interface SweepResult {
    x: number[];
    /** One column per numeric output; null where that point failed. */
    outputs: Record<string, Array<number | null>>;
    /** Why each point failed, or null. */
    errors: Array<NapkinError | null>;
  }

  type ParseResult = { ok: true; value: number } | { ok: false; error: string };

  interface SearchResult {
    total: number;
    evaluated: number;
    valid: number;
    seconds: number;
    configs_per_second: number;
    rejected: Record<string, number>;
    best: { layout: Record<string, InputValue>; outputs: Record<string, number | boolean> } | null;
    top: Array<{ layout: Record<string, InputValue>; outputs: Record<string, number | boolean> }>;
    pareto: Array<{ layout: Record<string, InputValue>; outputs: Record<string, number | boolean> }>;
    calculon_space?: unknown;
  }

  interface ProblemSummary {
    id: string;
    area: string;
    title: string;
    group: string;
    difficulty: number;
    tags: string[];
    [field: string]: unknown;
  }

  interface Problem {
    id: string;
    area: string;
    title: string;
    group: string;
    source: string;
    seed: number;
    difficulty: number;
    tags: string[];
    params: Record<string, number>;
    statement: string;
    estimator: string;
    inputs: Record<string, InputValue>;
    output: string;
    kind?: 'choice' | 'order';
    options?: string[];
    /** The key; shown only after an attempt. */
    answer: { value?: number; unit?: string; name?: string; scale?: number; text?: string; [k: string]: unknown };
    tolerance: number;
    close: number;
    integer: boolean;
    hints: string[];
    /** Share of full marks each hint before the last costs (the last counts as the solution). */
    hint_cost: number;
    mistakes: string[];
    solution: Step[];
    warnings: string[];
  }

  interface CheckReply {
    id: string;
    seed: number;
    verdict: 'correct' | 'close' | 'wrong' | 'unit' | string;
    score: number;
    mistake: string | null;
    feedback: string;
    given: { text: string; value: number | number[] | null };
    expected: { value: number | number[]; unit: string; [k: string]: unknown };
    [field: string]: unknown;
  }

  interface LoadReply {
    loaded: number;
    ids: string[];
    /** Each names the problem and the field. */
    errors: string[];
  }

  interface Napkin {
    /** The registry: estimators, their inputs and outputs with units, presets, charts. */
    list(): Registry | Failed;
    run(id: string, inputs?: Inputs): RunResult | Failed;
    sweep(id: string, inputs: Inputs, param: string, values: ArrayLike<number>): SweepResult | Failed;
    hardware(): Record<string, unknown> | Failed;
    models(): Array<Record<string, unknown> & { id: string; label: string }> | Failed;
    /** Text for a value in a registry unit ("688.1 MWh"); "—" for anything not finite. */
    format(value: number, unit: string, opts?: { binary?: boolean; digits?: number }): string;
    parse(text: string, unit?: string): ParseResult | Failed;
    /** The layout search; always resolves. */
    search(
      inputs: Inputs,
      opts?: { onProgress?: (p: { done: number; total: number }) => void; signal?: AbortSignal },
    ): Promise<SearchResult | Failed>;
    /** In the page and the embed, practice and search code load on first use: wait for this. */
    loadDeferred(): Promise<{ ok: true } | Failed>;
    /** A problem file (docs/authoring.md), as text or as the parsed object. */
    loadProblems(file: string | object): LoadReply | Failed;
    problems(): { problems: ProblemSummary[] } | Failed;
    problem(id: string, seed: number | string): Problem | Failed;
    check(id: string, seed: number | string, answer: string): CheckReply | Failed;
  }

  interface NapkinOptions {
    /** The page's Web Worker for search(); without it the search runs in this thread. */
    searchWorker?: () => Worker;
    [option: string]: unknown;
  }
}
export = createNapkin;
export as namespace createNapkin;
