/**
 * Info messages (tipo info): what happened in a conversation, written by the server. The row keeps
 * the kind and its parameters in `Message.data` and an English rendering in `text` (for search and
 * the recents' last-message line); each reader's browser shows it in their own language by kind.
 * A module that posts a new kind adds it here, with its English text.
 */
export type InfoMessage =
  | { info: 'participantsAdded'; params: { names: string[] } }
  | { info: 'participantRemoved'; params: { name: string } }
  | { info: 'participantLeft'; params: { name: string } }
  // Customer service (service module)
  /** The company's greeting that opens a request, already filled in ([nomecliente], [nomeempresa]). */
  | { info: 'greeting'; params: { text: string } }
  | { info: 'taken'; params: { name: string } }
  | { info: 'leftQueue'; params: { name: string } }
  | { info: 'waitingThirdParty'; params: { name: string } }
  | { info: 'resumed'; params: { name: string } }
  | { info: 'concluded'; params: { name: string } }
  /** 'Atendimento reaberto' */
  | { info: 'reopened'; params: { name: string } }
  | { info: 'transferredToQueue'; params: { from: string; queue: string } }
  | { info: 'transferredToAttendant'; params: { from: string; to: string } }
  /** The customer answered an SLA proposal; `date` is the proposed conclusion date (ISO). */
  | { info: 'slaAnswered'; params: { accepted: boolean; date: string } }
  | { info: 'rated'; params: { stars: number } }
  | { info: 'taskCreated'; params: { title: string; protocol: string } }
  | { info: 'linkedTicketOpened'; params: { company: string; protocol: string } }
  // Calls (calls module): '{name} não atendeu' and '{name} - Está em outra chamada no momento.'
  | { info: 'callNoAnswer'; params: { name: string } }
  | { info: 'callBusy'; params: { name: string } };

export type InfoKind = InfoMessage['info'];

export function infoText(m: InfoMessage): string {
  switch (m.info) {
    case 'participantsAdded':
      return `New participants were added: ${m.params.names.join(', ')}`;
    case 'participantRemoved':
      return `${m.params.name} was removed`;
    case 'participantLeft':
      return `${m.params.name} left the conversation`;
    case 'greeting':
      return m.params.text;
    case 'taken':
      return `${m.params.name} took the service`;
    case 'leftQueue':
      return `${m.params.name} left the queue`;
    case 'waitingThirdParty':
      return `${m.params.name} is waiting for a third party`;
    case 'resumed':
      return `${m.params.name} resumed the service`;
    case 'concluded':
      return `Service concluded by ${m.params.name}`;
    case 'reopened':
      return 'Service reopened';
    case 'transferredToQueue':
      return `${m.params.from} transferred the service to the queue ${m.params.queue}`;
    case 'transferredToAttendant':
      return `${m.params.from} transferred the service to ${m.params.to}`;
    case 'slaAnswered':
      return `${m.params.accepted ? 'Accepted' : 'Declined'} the proposed conclusion date ${m.params.date.slice(0, 10)}`;
    case 'rated':
      return `The customer rated the service ${m.params.stars}/5`;
    case 'taskCreated':
      return `Task created: ${m.params.title} (${m.params.protocol})`;
    case 'linkedTicketOpened':
      return `Linked ticket ${m.params.protocol} opened at ${m.params.company}`;
    case 'callNoAnswer':
      return `${m.params.name} did not answer`;
    case 'callBusy':
      return `${m.params.name} - Is on another call right now.`;
  }
}
