// Records -> rows and columns: typed, text-safe cell values, column choice, names, CSV.
export * from "./address.js";
export * from "./columns.js";
export * from "./cells.js";
export * from "./csv.js";
export * from "./csvRead.js";
export * from "./layout.js";
