// Large searches: partition planning and page-by-page import with patience and Resume.
export * from "./partition.js";
export * from "./importer.js";
export * from "./prepare.js";
