// The one websocket to the bot: the hello (the access token once, our session after),
// the frames both ways, and reconnecting with a growing pause when the socket drops.
import type { ServerFrame } from "./protocol";

export interface Hello {
  instance: string;
  channel: string;
  token: string;
  locale: string;
}

const FIRST_PAUSE = 250;
const LONGEST_PAUSE = 8000;

export class Connection {
  private socket: WebSocket | null = null;
  private session: string | null = null;
  private pause = FIRST_PAUSE;
  private ref = 0;
  private stopped = false;

  constructor(
    private readonly hello: Hello,
    private readonly onFrame: (frame: ServerFrame) => void,
    private readonly onState: (open: boolean) => void,
    private readonly onRefused: (message: string) => void,
  ) {}

  open(): void {
    const scheme = window.location.protocol === "https:" ? "wss" : "ws";
    const socket = new WebSocket(`${scheme}://${window.location.host}/api/ws`);
    this.socket = socket;
    socket.addEventListener("open", () => {
      const frame: Record<string, unknown> = {
        type: "hello",
        v: 1,
        instance: this.hello.instance,
        channel: this.hello.channel,
        locale: this.hello.locale.slice(0, 16),
      };
      if (this.session) frame.session = this.session;
      else frame.token = this.hello.token;
      socket.send(JSON.stringify(frame));
    });
    socket.addEventListener("message", (event: MessageEvent<string>) => {
      const frame = JSON.parse(event.data) as ServerFrame;
      if (frame.type === "welcome") {
        this.session = frame.session;
        this.pause = FIRST_PAUSE;
        this.onState(true);
      }
      this.onFrame(frame);
    });
    socket.addEventListener("close", (event: CloseEvent) => {
      if (this.socket !== socket) return;
      this.socket = null;
      this.onState(false);
      if (event.code === 4001) {
        // Our session was refused (a new secret, say): sign in with the token once more.
        if (this.session) {
          this.session = null;
        } else {
          this.stopped = true;
          this.onRefused(event.reason);
          return;
        }
      }
      if (this.stopped) return;
      window.setTimeout(() => this.open(), this.pause);
      this.pause = Math.min(LONGEST_PAUSE, this.pause * 2);
    });
  }

  /** Send a frame with a fresh ref; false when the socket is not open. */
  send(frame: Record<string, unknown>): boolean {
    const socket = this.socket;
    if (!socket || socket.readyState !== WebSocket.OPEN) return false;
    this.ref += 1;
    socket.send(JSON.stringify({ ...frame, ref: this.ref }));
    return true;
  }
}
