// core -> what the contract analysis finds: plain JSON-serialisable data, every item carrying the
// 1-based page it came from, so the lawyer can check it against the contract itself.

/** One page of extracted text, as the analysis takes it. */
export interface PageTextInput {
  /** 1-based page number. */
  number: number;
  text: string;
}

/** A piece of contract text and the page it was found on. */
export interface Located {
  text: string;
  page: number;
}

export type PartyRole = 'vendor' | 'purchaser' | 'vendorSolicitor' | 'purchaserSolicitor' | 'agent';

export interface Party {
  role: PartyRole;
  name: string;
  page: number;
}

export interface PropertyDetails {
  address: Located | null;
  /** e.g. NSW folio identifier "5/123456" or a Queensland title reference. */
  titleReference: Located | null;
  /** e.g. "Lot 5 in Deposited Plan 123456". */
  lotAndPlan: Located | null;
  /** Victorian certificate of title, e.g. "Volume 12345 Folio 678". */
  volumeFolio: Located | null;
}

export interface Price {
  /** Whole cents, so no floating point creeps into money. */
  cents: number;
  currency: string;
  /** The amount as the contract writes it. */
  text: string;
  page: number;
}

export interface Deposit {
  /** Stated amount in cents; null when only a percentage is given. */
  cents: number | null;
  /** Stated percentage of the price; null when only an amount is given. */
  percent: number | null;
  /** The stated percentage, or the amount as a percentage of the price when both are known. */
  percentOfPrice: number | null;
  /** When it is due, as written ("on signing", "by 21/11/2026"); null when not stated nearby. */
  due: string | null;
  text: string;
  page: number;
}

export type DateKind = 'contract' | 'settlement' | 'coolingOff' | 'finance' | 'inspection' | 'sunset';

/** A period counted from an event, e.g. "42 days after the contract date". */
export interface RelativePeriod {
  days: number;
  businessDays: boolean;
  /** The event counted from, as written; null when not stated. */
  from: string | null;
}

export interface KeyDate {
  kind: DateKind;
  /** The phrase the date came from. */
  text: string;
  page: number;
  /** ISO YYYY-MM-DD when the contract states an unambiguous date. */
  iso: string | null;
  relative: RelativePeriod | null;
}

export interface SpecialCondition {
  /** As numbered in the contract, e.g. "3" or "34". */
  number: string;
  title: string;
  page: number;
}

export type AttentionTopic =
  | 'coolingOff'
  | 'deposit'
  | 'finance'
  | 'sunset'
  | 'gst'
  | 'vendorFinance'
  | 'defaultInterest'
  | 'earlyAccess'
  | 'asIs'
  | 'termination'
  | 'tenancy'
  | 'easementsCovenants'
  | 'buildingAndPest'
  | 'strata'
  | 'adjustments'
  | 'guarantee';

export interface AttentionItem {
  topic: AttentionTopic;
  excerpt: string;
  page: number;
  why: string;
}

export type MissingItem =
  | 'vendor'
  | 'purchaser'
  | 'propertyAddress'
  | 'price'
  | 'deposit'
  | 'settlementDate'
  | 'coolingOff'
  | 'financeClause';

export interface Missing {
  item: MissingItem;
  note: string;
}

export interface ContractAnalysis {
  pageCount: number;
  parties: Party[];
  property: PropertyDetails;
  price: Price | null;
  deposit: Deposit | null;
  dates: KeyDate[];
  specialConditions: SpecialCondition[];
  attention: AttentionItem[];
  missing: Missing[];
}
