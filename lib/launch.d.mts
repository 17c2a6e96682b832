// Declarations of launch.mjs for the TypeScript that imports it (the benchmarks' mock, which
// chooses between dist/ and the sources as the command does).
export function freshBuild(): boolean;
