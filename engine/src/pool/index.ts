export { createEngine, type Engine, type EngineOptions, type EngineStats } from './engine.ts';
