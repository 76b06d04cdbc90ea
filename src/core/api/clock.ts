// The client's clock on real time: the contract's one timer clock (core/contract/clock.ts).
import { timerClock } from "../contract/clock.js";
import type { Clock } from "./types.js";

export const systemClock: Clock = timerClock();
