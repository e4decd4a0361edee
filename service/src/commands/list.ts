// The `kerf` commands: each is the module ./<name>.ts exporting `run(args): Promise<number>`.
export const COMMANDS = ['serve', 'analyze', 'catalog', 'dfm', 'quote', 'admin', 'mcp', 'help'] as const;
export type CommandName = (typeof COMMANDS)[number];

export interface CommandModule { run(args: string[]): Promise<number> }

export function isCommand(name: string): name is CommandName {
  return (COMMANDS as readonly string[]).includes(name);
}
