/**
 * The simulated comparison of messaging policies (no messages, daily, weekly, personalised). Its page is composed
 * in src/app from ./components and ./server; other features read only what is exported here (server only).
 */
export { getSimulatedAdherenceEffect, type SimulatedAdherenceEffect } from './server/get-simulated-adherence-effect';
