/**
 * The implementation of the hello agent's `sayHello` (examples/helloAgent.gram), written with
 * `createTool`: a name, a description and a JSON Schema that must match the specification, and a
 * function. `gramkit run` binds it by name and checks that they agree.
 */
import { createTool, toolLibrary } from 'gramkit';

export const sayHello = createTool(
  'sayHello',
  'Returns a friendly greeting message for the given name',
  { type: 'object', properties: { personName: { type: 'string', description: 'Who to greet' } }, required: ['personName'] },
  (args: { personName: string }) => `Hello, ${args.personName}! Nice to meet you.`,
);

export default toolLibrary([sayHello]);
