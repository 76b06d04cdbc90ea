// Signal answers (docs/signals.md): the service's wire shapes, which the client checks answers
// against, and the plain shapes the add-in reads them into (core/api/signalAnswers.ts).
import { Type, type Static, type TSchema } from "@sinclair/typebox";
import { SearchDocument } from "./common.js";

// Two shapes of each signal. The wire shape is what the service sends (its published schemas:
// ids as strings or numbers, scoop types and topics and job functions as objects, date-times,
// a company that may be missing); the client checks answers against it and reads each item into
// the plain shape below (core/api/signalAnswers.ts), which the sheet, the cells and the pane use.

const Open = { additionalProperties: true } as const;
const opt = Type.Optional;
/** An id the service writes as a string in one place and a number in another. */
const WireId = Type.Union([Type.String(), Type.Integer()]);
/** A named thing the service writes as an object ({id, type}, {name, department}) or as text. */
const WireNamed = Type.Union([Type.String(), Type.Object({}, Open)]);

const WirePerson = {
  id: opt(WireId),
  firstName: opt(Type.String()),
  lastName: opt(Type.String()),
  jobTitle: opt(Type.String()),
  companyName: opt(Type.String()),
  jobFunctions: opt(Type.Array(WireNamed)),
  jobFunction: opt(Type.Array(WireNamed)),
};
const WireIntentSignal = Type.Object(
  {
    category: opt(Type.String()),
    topic: Type.String(),
    signalScore: Type.Integer(),
    audienceStrength: opt(Type.String()),
    signalDate: opt(Type.String()),
    spikesInDateRange: opt(Type.Integer()),
    company: opt(Type.Object({ id: opt(WireId), name: opt(Type.String()), website: opt(Type.String()), hasOtherTopicConsumption: opt(Type.Boolean()) }, Open)),
    recommendedContacts: opt(Type.Array(Type.Object(WirePerson, Open))),
    topSignalLocations: opt(Type.Array(Type.Object({ city: opt(Type.String()), state: opt(Type.String()), country: opt(Type.String()) }, Open))),
  },
  Open,
);
const WireScoop = Type.Object(
  {
    id: opt(WireId),
    publishedDate: opt(Type.String()),
    originalPublishedDate: opt(Type.String()),
    linkText: opt(Type.String()),
    link: opt(Type.String()),
    description: opt(Type.String()),
    topics: opt(Type.Array(WireNamed)),
    types: opt(Type.Array(WireNamed)),
    updateText: opt(Type.String()),
    company: opt(Type.Object({ id: opt(WireId), name: opt(Type.String()) }, Open)),
    contacts: opt(Type.Array(Type.Object(WirePerson, Open))),
  },
  Open,
);
const WireNewsArticle = Type.Object(
  {
    domain: opt(Type.String()),
    title: opt(Type.String()),
    url: opt(Type.String()),
    imageUrl: opt(Type.String()),
    pageDate: opt(Type.String()),
    categories: opt(Type.Array(Type.String())),
    description: opt(Type.String()),
    company: opt(Type.Array(Type.Object({ id: opt(WireId), name: opt(Type.String()) }, Open))),
  },
  Open,
);
/**
 * A technology installed at a company: one list of fields for the wire (open, category optional)
 * and the plain shape below (category required), and the sandbox's answers are typed by it.
 */
const TECHNOLOGY_FIELDS = {
  categoryParent: opt(Type.String()),
  category: opt(Type.String()),
  vendor: opt(Type.String()),
  product: Type.String(),
  attribute: opt(Type.String()),
  website: opt(Type.String()),
  logo: opt(Type.String()),
  domain: opt(Type.String()),
  createdDate: opt(Type.String()),
  modifiedDate: opt(Type.String()),
  description: opt(Type.String()),
};
const WireTechnology = Type.Object(TECHNOLOGY_FIELDS, Open);

/** One answer item: an id, a type and the signal as attributes. */
function item<T extends TSchema>(attributes: T) {
  return Type.Object({ id: Type.String(), type: Type.String(), attributes }, Open);
}
export const IntentWireItem = item(WireIntentSignal);
export type IntentWireItem = Static<typeof IntentWireItem>;
export const ScoopWireItem = item(WireScoop);
export type ScoopWireItem = Static<typeof ScoopWireItem>;
export const NewsWireItem = item(WireNewsArticle);
export type NewsWireItem = Static<typeof NewsWireItem>;
export const TechnologiesWireItem = item(WireTechnology);
export type TechnologiesWireItem = Static<typeof TechnologiesWireItem>;

export const IntentDocument = SearchDocument(IntentWireItem);
export const ScoopDocument = SearchDocument(ScoopWireItem);
export const NewsDocument = SearchDocument(NewsWireItem);
export const TechnologiesDocument = Type.Object({ data: Type.Array(TechnologiesWireItem) }, Open);

// The plain shape: ids as numbers (contacts, companies), names as text, dates as YYYY-MM-DD.
const Person = {
  id: Type.Integer(),
  firstName: opt(Type.String()),
  lastName: opt(Type.String()),
  jobTitle: opt(Type.String()),
  companyName: opt(Type.String()),
  jobFunctions: opt(Type.Array(Type.String())),
};
export const RecommendedContact = Type.Object(Person);
export const IntentSignal = Type.Object({
  category: Type.String(),
  topic: Type.String(),
  signalScore: Type.Integer(),
  audienceStrength: Type.String(),
  signalDate: Type.String(),
  spikesInDateRange: opt(Type.Integer({ minimum: 0 })),
  company: opt(Type.Object({ id: Type.Integer(), name: opt(Type.String()), website: opt(Type.String()), hasOtherTopicConsumption: opt(Type.Boolean()) })),
  recommendedContacts: opt(Type.Array(RecommendedContact)),
  topSignalLocations: opt(Type.Array(Type.Object({ city: opt(Type.String()), state: opt(Type.String()), country: opt(Type.String()) }))),
});
export type IntentSignal = Static<typeof IntentSignal>;

export const Scoop = Type.Object({
  id: Type.String(),
  publishedDate: Type.String(),
  originalPublishedDate: opt(Type.String()),
  linkText: opt(Type.String()),
  link: opt(Type.String()),
  description: opt(Type.String()),
  /** Topic names. */
  topics: opt(Type.Array(Type.String())),
  /** Type names ("Award"). */
  types: opt(Type.Array(Type.String())),
  updateText: opt(Type.String()),
  company: opt(Type.Object({ id: Type.Integer(), name: opt(Type.String()) })),
  contacts: opt(Type.Array(Type.Object(Person))),
});
export type Scoop = Static<typeof Scoop>;

export const NewsArticle = Type.Object({
  domain: opt(Type.String()),
  title: Type.String(),
  url: Type.String(),
  imageUrl: opt(Type.String()),
  pageDate: Type.String(),
  categories: opt(Type.Array(Type.String())),
  description: opt(Type.String()),
  company: opt(Type.Array(Type.Object({ id: Type.Integer(), name: opt(Type.String()) }))),
});
export type NewsArticle = Static<typeof NewsArticle>;

export const Technology = Type.Object({ ...TECHNOLOGY_FIELDS, category: Type.String() });
export type Technology = Static<typeof Technology>;

const plainItem = <T extends TSchema>(attributes: T) => Type.Object({ id: Type.String(), type: Type.String(), attributes });
export const IntentItem = plainItem(IntentSignal);
export type IntentItem = Static<typeof IntentItem>;
export const ScoopItem = plainItem(Scoop);
export type ScoopItem = Static<typeof ScoopItem>;
export const NewsItem = plainItem(NewsArticle);
export type NewsItem = Static<typeof NewsItem>;
/** Technologies enrich: one item per technology installed at the company. */
export const TechnologiesItem = plainItem(Technology);
export type TechnologiesItem = Static<typeof TechnologiesItem>;
