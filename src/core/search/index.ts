// Large searches: partition planning and page-by-page import (the client's pager and retry) and Resume.
export * from "./partition.js";
export * from "./importer.js";
export * from "./prepare.js";
