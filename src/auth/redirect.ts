// Placeholder entry so the build runs; the sign-in owner replaces this file.
export {};
