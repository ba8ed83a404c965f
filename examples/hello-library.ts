/**
 * The implementation of the hello agent's `sayHello` (examples/helloAgent.gram), written with
 * `implement`: the tool's name, description and schema come from the file, so the library always
 * binds to it; the handler is a plain function of the arguments. `gramkit run` binds it by name.
 */
import { implement } from 'gramkit';

export default await implement(new URL('./helloAgent.gram', import.meta.url), {
  sayHello: ({ personName }: { personName: string }) => `Hello, ${personName}! Nice to meet you.`,
});
