'use client';

import { Button, FieldError, Form, Input, Label, Modal, Spinner, TextArea, TextField } from '@heroui/react';
import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { type ContactField, type ContactResponse, contactFieldLabels, contactFieldLimits } from '../contact-fields';

export const contactSuccessText = "Your message has been delivered! Thanks, we'll get in touch soon.";
export const contactFailureText = 'Failed to send message. Please try again later.';

type SendState = 'editing' | 'sending' | 'sent';

const fields: { name: ContactField; type: 'text' | 'email' | 'tel' | 'multiline'; required: boolean; autoComplete: string }[] = [
  { name: 'contactName', type: 'text', required: true, autoComplete: 'name' },
  { name: 'contactEmail', type: 'email', required: true, autoComplete: 'email' },
  { name: 'contactNumber', type: 'tel', required: false, autoComplete: 'tel' },
  { name: 'subject', type: 'text', required: true, autoComplete: 'off' },
  { name: 'message', type: 'multiline', required: true, autoComplete: 'off' },
];

/** Seed-spec §7: GET /api/contact-us with the fields as query parameters and a JSON content type, no body. */
async function requestContact(form: HTMLFormElement): Promise<ContactResponse> {
  const data = new FormData(form);
  const query = new URLSearchParams();
  for (const name of ['subject', 'message', 'contactName', 'contactEmail', 'contactNumber'] as const) {
    query.set(name, String(data.get(name) ?? ''));
  }
  const response = await fetch(`/api/contact-us?${query.toString()}`, {
    method: 'GET',
    headers: { 'Content-Type': 'application/json' },
  });
  return (await response.json()) as ContactResponse;
}

export type ContactModalProps = { productName: string; isOpen: boolean; onOpenChange: (isOpen: boolean) => void };

/** The contact modal of seed-spec §2/§4: open → sending → sent; a failure keeps the form and alerts. */
export function ContactModal({ productName, isOpen, onOpenChange }: ContactModalProps) {
  const formId = useId();
  const [state, setState] = useState<SendState>('editing');
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});
  const sendButton = useRef<HTMLButtonElement>(null);
  const confirmation = useRef<HTMLParagraphElement>(null);
  const previousState = useRef<SendState>(state);

  // Send is disabled while sending, which drops keyboard focus out of the dialog; bring it back to where
  // the user continues: the confirmation after success, Send after a failure.
  useEffect(() => {
    if (state === 'sent') confirmation.current?.focus();
    if (state === 'editing' && previousState.current === 'sending') sendButton.current?.focus();
    previousState.current = state;
  }, [state]);

  const changeOpen = (open: boolean) => {
    if (!open && state !== 'sending') {
      setState('editing');
      setServerErrors({});
    }
    onOpenChange(open);
  };

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (state !== 'editing') return;
    setState('sending');
    setServerErrors({});
    try {
      const answer = await requestContact(event.currentTarget);
      if (answer.success === true) {
        setState('sent');
        return;
      }
      setServerErrors(answer.error?.fieldErrors ?? {});
      setState('editing');
      window.alert(contactFailureText);
    } catch {
      // DESIGN §8.2: a network or JSON failure alerts and re-enables Send (the spec's endless loading is a defect).
      setState('editing');
      window.alert(contactFailureText);
    }
  };

  return (
    <Modal isOpen={isOpen} onOpenChange={changeOpen}>
      <Modal.Backdrop>
        {/* HeroUI v3 stops at "lg"; the spec's extra-large (xl) is 36rem wide. */}
        <Modal.Container size="lg" scroll="inside">
          <Modal.Dialog className="sm:max-w-xl!" data-size="xl">
            <Modal.CloseTrigger aria-label="Close dialog" />
            <Modal.Header>
              <Modal.Heading>Contact {productName}</Modal.Heading>
            </Modal.Header>
            <Modal.Body>
              {state === 'sent' ? (
                <p role="status" ref={confirmation} tabIndex={-1} className="py-6 text-base outline-none">
                  {contactSuccessText}
                </p>
              ) : (
                <Form
                  id={formId}
                  aria-label={`Contact ${productName}`}
                  className="flex flex-col gap-4"
                  validationErrors={serverErrors}
                  onSubmit={(event) => void submit(event)}
                >
                  {fields.map((field) => (
                    <TextField
                      key={field.name}
                      name={field.name}
                      type={field.type === 'multiline' ? 'text' : field.type}
                      isRequired={field.required}
                      maxLength={contactFieldLimits[field.name]}
                      autoComplete={field.autoComplete}
                      isDisabled={state === 'sending'}
                      autoFocus={field.name === 'contactName'}
                    >
                      <Label>{contactFieldLabels[field.name]}</Label>
                      {field.type === 'multiline' ? <TextArea rows={5} /> : <Input />}
                      <FieldError />
                    </TextField>
                  ))}
                </Form>
              )}
            </Modal.Body>
            <Modal.Footer>
              {/* A spinner inside a button is not announced, so the sending state gets its own live region. */}
              <span className="sr-only" aria-live="polite">
                {state === 'sending' ? 'Sending your message…' : ''}
              </span>
              <Button slot="close" variant="secondary">
                Close
              </Button>
              <Button
                ref={sendButton}
                type="submit"
                form={formId}
                variant="primary"
                isDisabled={state !== 'editing'}
                data-loading={state === 'sending' ? 'true' : undefined}
              >
                {state === 'sending' ? <Spinner size="sm" color="current" data-testid="send-spinner" /> : null}
                Send
              </Button>
            </Modal.Footer>
          </Modal.Dialog>
        </Modal.Container>
      </Modal.Backdrop>
    </Modal>
  );
}
