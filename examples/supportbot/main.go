// Command supportbot is freshctx's reference bot backend: the whole loop the
// product exists for, in one small program. See its -help and
// examples/supportbot/README.md.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/confluentinc/confluent-kafka-go/v2/kafka"

	"github.com/freshctx/freshctx/client"
)

const usage = `supportbot: the reference bot backend for freshctx.

  POST /chat {"tenant": "acme", "customer": "1001", "session": "web-1", "text": "where is my refund?"}

1. publishes the customer's turn to Kafka (-turns-topic, keyed by session, JSON
   {message_id, tenant, session_id, customer_id, role, content, ts, channel});
2. asks freshctx for customer:<customer>'s context and the session's memory that
   include that turn (after=topic:partition:offset, read-your-writes);
3. asks the chat model (any OpenAI-compatible chat-completions server, -model-url;
   without one, a built-in offline responder that quotes the top-ranked event);
4. publishes the reply as a turn (role bot), so the next question's memory has it;
5. answers {reply, prompt, context, turns, model, took_ms}.

Usage: supportbot [flags]
       supportbot say [-bot URL] -customer ID -session ID TEXT   (a turn from the terminal)

Examples:
  supportbot                                   # beside make run: offline responder
  supportbot say -customer 1001 -session web-1 "where is my refund?"
  supportbot -model-url http://127.0.0.1:11434/v1 -model llama3.2
  OPENAI_API_KEY=... supportbot -model-url https://<your-provider>/v1 -model <model>

Flags:
`

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Getenv, os.Stderr, nil); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			os.Exit(0)
		}
		fmt.Fprintln(os.Stderr, "supportbot:", err)
		os.Exit(1)
	}
}

// run serves until ctx ends; ready (optional) receives the listening address.
func run(ctx context.Context, args []string, getenv func(string) string, stderr io.Writer, ready chan<- string) error {
	if len(args) > 0 && args[0] == "say" {
		return say(ctx, args[1:], os.Stdout, stderr)
	}
	fs := flag.NewFlagSet("supportbot", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, usage); fs.PrintDefaults() }
	listen := fs.String("listen", "127.0.0.1:8090", "HTTP address of POST /chat")
	brokers := fs.String("brokers", "127.0.0.1:19092", "Kafka bootstrap servers (`make run`'s broker by default)")
	api := fs.String("freshctx", "http://127.0.0.1:8080", "freshctx context API URL")
	keyEnv := fs.String("api-key-env", "FRESHCTX_API_KEY", "environment variable holding the freshctx API key (unset: development mode)")
	tenant := fs.String("tenant", "acme", "the tenant this bot serves: its API key's tenant, written into every turn")
	turns := fs.String("turns-topic", "support.turns", "topic of conversation turns (freshctx's sessions source)")
	window := fs.String("window", "60m", "how far back the customer's events are read")
	budget := fs.Duration("budget", 2*time.Second, "time allowed for each freshctx call (it includes waiting for the new turn)")
	modelURL := fs.String("model-url", "", "base URL of an OpenAI-compatible chat-completions server (empty: the offline responder)")
	model := fs.String("model", "gpt-4o-mini", "model name sent to -model-url")
	modelKeyEnv := fs.String("model-key-env", "OPENAI_API_KEY", "environment variable holding the model server's key (optional)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q; see -help", fs.Arg(0))
	}
	log := slog.New(slog.NewTextHandler(stderr, nil))
	producer, err := kafka.NewProducer(&kafka.ConfigMap{"bootstrap.servers": *brokers, "linger.ms": 1, "acks": "all",
		"enable.idempotence": true, "enable.metrics.push": false})
	if err != nil {
		return fmt.Errorf("-brokers: %w", err)
	}
	defer producer.Close()
	var responder Responder = Offline{}
	if *modelURL != "" {
		responder = &ChatModel{BaseURL: *modelURL, Model: *model, APIKey: getenv(*modelKeyEnv), HTTP: &http.Client{Timeout: 60 * time.Second}}
	}
	bot := &Bot{
		cfg:      Config{Tenant: *tenant, TurnsTopic: *turns, Budget: *budget, Window: *window},
		producer: producer,
		fresh:    client.New(*api, client.WithAPIKey(getenv(*keyEnv))),
		model:    responder,
		log:      log,
		now:      time.Now,
	}
	ln, err := net.Listen("tcp", *listen)
	if err != nil {
		return fmt.Errorf("-listen: %w", err)
	}
	srv := &http.Server{Handler: bot, ReadHeaderTimeout: 5 * time.Second}
	log.Info("supportbot listening", "url", "http://"+ln.Addr().String()+"/chat", "freshctx", *api, "model", responder.Name())
	if ready != nil {
		ready <- ln.Addr().String()
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	return srv.Shutdown(sctx)
}

// say sends one customer turn to a running bot and prints the exchange: what
// the model was given and what it answered.
func say(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("supportbot say", flag.ContinueOnError)
	fs.SetOutput(stderr)
	bot := fs.String("bot", "http://127.0.0.1:8090", "the running bot's URL")
	customer := fs.String("customer", "", "customer id (required)")
	sess := fs.String("session", "", "session id (required)")
	tenant := fs.String("tenant", "", "tenant (default: the bot's)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return errors.New("say: give the customer's text as one argument, e.g. supportbot say -customer 1001 -session web-1 \"where is my refund?\"")
	}
	body, _ := json.Marshal(ChatRequest{Tenant: *tenant, Customer: *customer, Session: *sess, Text: fs.Arg(0)})
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, strings.TrimRight(*bot, "/")+"/chat", bytes.NewReader(body))
	if err != nil {
		return err
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	if res.StatusCode != http.StatusOK {
		return fmt.Errorf("%s: %s", res.Status, strings.TrimSpace(string(b)))
	}
	var out ChatResponse
	if err := json.Unmarshal(b, &out); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "customer %s (session %s): %s\n\nwhat the model (%s) was given:\n", *customer, *sess, fs.Arg(0), out.Model)
	for _, m := range out.Prompt {
		lines := strings.Split(strings.TrimSpace(m.Content), "\n")
		fmt.Fprintf(stdout, "  [%s] %s\n", m.Role, lines[0])
		for _, l := range lines[1:] {
			fmt.Fprintf(stdout, "  %s %s\n", strings.Repeat(" ", len(m.Role)+2), l)
		}
	}
	fresh := "the memory holds the new turn (after=" + out.Turns.Customer + ")"
	if d := out.Context.Meta.Degraded; len(d) > 0 {
		fresh = fmt.Sprintf("degraded: %+v", d)
	}
	fmt.Fprintf(stdout, "\nbot: %s\n\n(%.1f ms; %s; the reply is turn %s)\n", out.Reply, out.TookMS, fresh, out.Turns.Bot)
	return nil
}
