/**
 * The words of every template, by template id (`category.framing.variant`, as the simulator names them)
 * and language. Framings: neutral says it plainly, gain says what taking the medicine brings, loss what
 * missing it risks, social what other people do. Social lines make no numeric claims we cannot source.
 * Spanish uses "usted" and vocabulary shared by Spain and Latin America. Bodies never start or end with
 * a placeholder (WhatsApp refuses such templates); the reply options are added by the renderer.
 */
import type { TemplateLanguage } from './template-fields';

export const templateTexts: Readonly<Record<TemplateLanguage, Readonly<Record<string, string>>>> = {
  en: {
    'reminder.neutral.1': 'Reminder: your {{medicine}} is due at {{dose_time}}.',
    'reminder.neutral.2': 'It is nearly {{dose_time}}: time for your {{medicine}}.',
    'reminder.neutral.3': 'Your {{medicine}} dose for {{dose_time}} is due now. Let us know once it is done.',
    'reminder.gain.1': 'Your {{medicine}} is due at {{dose_time}}. Each dose on time helps it work at its best.',
    'reminder.gain.2': "Time for your {{medicine}} ({{dose_time}}). Taking today's dose keeps you on track to feel your best.",
    'reminder.gain.3': 'A dose of {{medicine}} at {{dose_time}} is a small step that protects your health for years to come.',
    'reminder.loss.1': 'Your {{medicine}} is due at {{dose_time}}. Missed doses can let your condition slip back.',
    'reminder.loss.2': "Don't let today's dose slip: your {{medicine}} is due at {{dose_time}}.",
    'reminder.loss.3': 'It is {{dose_time}}: time for your {{medicine}}. Skipped doses leave you less protected.',
    'reminder.social.1': 'Your {{medicine}} is due at {{dose_time}}. Many people make it part of their day, like brushing their teeth.',
    'reminder.social.2': 'It is {{dose_time}}, when lots of people in the programme take their medicine. Time for your {{medicine}}.',
    'reminder.social.3':
      'People who rarely miss a dose often keep their medicine where they can see it. Your {{medicine}} is due at {{dose_time}}.',

    'refill.neutral.1': 'You have {{days_left}} of {{medicine}} left. Time to arrange your refill.',
    'refill.neutral.2': 'Refill reminder: {{days_left}} of {{medicine}} left. Please order your next supply.',
    'refill.neutral.3': 'Your {{medicine}} runs out in {{days_left}}. Contact your pharmacy to refill.',
    'refill.gain.1': 'You have {{days_left}} of {{medicine}} left. Refilling now keeps your treatment going without a break.',
    'refill.gain.2': 'You have {{days_left}} of {{medicine}} left. A refill now means no gaps and steady protection.',
    'refill.gain.3': 'Stay ahead: {{days_left}} of {{medicine}} left. An early refill keeps every dose on time.',
    'refill.loss.1': 'Only {{days_left}} of {{medicine}} left. Running out means missed doses, so please refill soon.',
    'refill.loss.2': 'Your {{medicine}} runs out in {{days_left}}. A break in treatment can undo your progress: please refill now.',
    'refill.loss.3': "You have {{days_left}} of {{medicine}} left. Don't get caught without it: order your refill today.",
    'refill.social.1': 'Many people order their refill a week before they run out. You have {{days_left}} of {{medicine}} left.',
    'refill.social.2': "People who keep a week's spare {{medicine}} rarely miss doses. You have {{days_left}} left: time to refill.",
    'refill.social.3':
      'You have {{days_left}} of {{medicine}} left. Many patients ask their pharmacy for repeat refills; it may suit you too.',

    'education.neutral.1': 'Did you know? Taking {{medicine}} at the same time each day keeps a steady level in your body.',
    'education.neutral.2':
      'Tip: if you miss a dose of {{medicine}}, check the leaflet or ask your pharmacist. Do not take a double dose unless told to.',
    'education.neutral.3': 'Keep {{medicine}} in its original pack, away from heat and damp, so it works as it should.',
    'education.gain.1': 'Did you know? {{medicine}} works best when taken regularly: steady doses give steady protection.',
    'education.gain.2': 'Taking {{medicine}} as prescribed lowers the chance of your condition getting worse and of a hospital stay.',
    'education.gain.3': 'Linking {{medicine}} to something you do every day, like breakfast, makes it easier to remember.',
    'education.loss.1':
      'Good to know: stopping {{medicine}} suddenly can make your condition worse. Talk to your care team before any change.',
    'education.loss.2': 'Even when you feel well, missed doses of {{medicine}} can let your condition worsen without warning.',
    'education.loss.3':
      'Missing several doses of {{medicine}} can make it work less well. If doses are hard to fit in, your care team can help.',
    'education.social.1': 'Many people use a weekly pill box for {{medicine}}. It makes a missed dose easy to spot.',
    'education.social.2': 'Lots of patients set a phone alarm for {{medicine}}. Small habits like this help people stay on track.',
    'education.social.3':
      'You are not alone: many people find a daily medicine hard to keep up. Asking your pharmacist about {{medicine}} is a good start.',

    'encouragement.neutral.1': 'Keep going with your {{medicine}}. Every dose counts.',
    'encouragement.neutral.2': 'Thank you for keeping up with your {{medicine}}. We are here if you need anything.',
    'encouragement.neutral.3': 'One day at a time: your routine with {{medicine}} is worth keeping.',
    'encouragement.gain.1': 'Well done for sticking with {{medicine}}. Each day you take it is a day invested in your health.',
    'encouragement.gain.2': 'Your routine with {{medicine}} is paying off: steady doses mean steady protection.',
    'encouragement.gain.3': 'Keep it up! Staying on {{medicine}} helps you keep doing the things you enjoy.',
    'encouragement.loss.1': "You have built a good routine with {{medicine}}. Don't let a busy week break it.",
    'encouragement.loss.2': 'The progress you have made with {{medicine}} is worth protecting: keep taking it every day.',
    'encouragement.loss.3': 'Routines slip easily. Staying with {{medicine}} keeps your good work from being lost.',
    'encouragement.social.1': 'You are one of many people staying on track with their medicine. Keep going with {{medicine}}!',
    'encouragement.social.2': 'People who stay with {{medicine}} for the long run get the most from it, and you are doing just that.',
    'encouragement.social.3': 'Your care team sees the effort you put in. Keep going with {{medicine}}!',

    'check-in.neutral.1': 'Quick check: did you take your {{medicine}} today?',
    'check-in.neutral.2': "How is it going with {{medicine}}? Did you take today's dose at {{dose_time}}?",
    'check-in.neutral.3': 'Checking in: has your {{medicine}} dose for {{dose_time}} been taken?',
    'check-in.gain.1': 'Did you take your {{medicine}} today? Letting us know helps your care team support you.',
    'check-in.gain.2': "Have you had today's {{medicine}}? A quick reply helps us send reminders only when they help.",
    'check-in.gain.3': "Checking in on {{medicine}}: did today's dose happen? Each answer helps us tailor your support.",
    'check-in.loss.1': 'Did you take your {{medicine}} today? If doses are being missed, we would like to know so we can help.',
    'check-in.loss.2': "Has today's {{medicine}} been taken? Missed doses are easier to fix when we hear about them early.",
    'check-in.loss.3': 'Did your {{medicine}} dose at {{dose_time}} happen? If not, tell us why and we can help you miss fewer.',
    'check-in.social.1': 'Many people find a quick daily check helps. Did you take your {{medicine}} today?',
    'check-in.social.2': "Your care team reads every reply. Did you take today's {{medicine}}?",
    'check-in.social.3': "Others on {{medicine}} tell us a quick check-in keeps them on track. Did you take today's dose?",
  },
  es: {
    'reminder.neutral.1': 'Recordatorio: le toca su {{medicine}} a las {{dose_time}}.',
    'reminder.neutral.2': 'Son casi las {{dose_time}}: es la hora de su {{medicine}}.',
    'reminder.neutral.3': 'Le toca ahora su dosis de {{medicine}} de las {{dose_time}}. Avísenos cuando la haya tomado.',
    'reminder.gain.1': 'Le toca su {{medicine}} a las {{dose_time}}. Cada dosis a tiempo ayuda a que funcione mejor.',
    'reminder.gain.2': 'Es la hora de su {{medicine}} ({{dose_time}}). Tomar la dosis de hoy le ayuda a sentirse lo mejor posible.',
    'reminder.gain.3': 'Una dosis de {{medicine}} a las {{dose_time}} es un pequeño paso que protege su salud durante años.',
    'reminder.loss.1': 'Le toca su {{medicine}} a las {{dose_time}}. Las dosis olvidadas pueden hacer que su enfermedad empeore.',
    'reminder.loss.2': 'Que no se le pase la dosis de hoy: le toca su {{medicine}} a las {{dose_time}}.',
    'reminder.loss.3': 'Son las {{dose_time}}: es la hora de su {{medicine}}. Saltarse dosis reduce su protección.',
    'reminder.social.1': 'Le toca su {{medicine}} a las {{dose_time}}. Mucha gente lo hace parte de su día, como lavarse los dientes.',
    'reminder.social.2': 'Son las {{dose_time}}, cuando muchas personas del programa toman su medicación. Es la hora de su {{medicine}}.',
    'reminder.social.3':
      'Quienes casi nunca olvidan una dosis suelen tener el medicamento a la vista. Le toca su {{medicine}} a las {{dose_time}}.',

    'refill.neutral.1': 'Le queda {{medicine}} para {{days_left}}. Es momento de pedir la reposición.',
    'refill.neutral.2': 'Aviso de reposición: le queda {{medicine}} para {{days_left}}. Pida su próximo envase.',
    'refill.neutral.3': 'Su {{medicine}} se acaba en {{days_left}}. Contacte con su farmacia para reponerlo.',
    'refill.gain.1': 'Le queda {{medicine}} para {{days_left}}. Reponerlo ahora mantiene su tratamiento sin interrupciones.',
    'refill.gain.2': 'Le queda {{medicine}} para {{days_left}}. Reponerlo ya significa ninguna pausa y una protección constante.',
    'refill.gain.3': 'Adelántese: le queda {{medicine}} para {{days_left}}. Reponer a tiempo mantiene cada dosis en su hora.',
    'refill.loss.1': 'Solo le queda {{medicine}} para {{days_left}}. Quedarse sin medicamento significa perder dosis: repóngalo pronto.',
    'refill.loss.2': 'Su {{medicine}} se acaba en {{days_left}}. Interrumpir el tratamiento puede deshacer su progreso: repóngalo ya.',
    'refill.loss.3': 'Le queda {{medicine}} para {{days_left}}. Que no se quede sin él: pida la reposición hoy.',
    'refill.social.1': 'Mucha gente pide la reposición una semana antes de que se le acabe. Le queda {{medicine}} para {{days_left}}.',
    'refill.social.2':
      'Quienes guardan una semana de reserva de {{medicine}} rara vez pierden dosis. Le queda para {{days_left}}: es momento de reponer.',
    'refill.social.3':
      'Le queda {{medicine}} para {{days_left}}. Muchos pacientes piden a su farmacia la dispensación periódica; quizá le convenga.',

    'education.neutral.1': '¿Sabía que tomar {{medicine}} a la misma hora cada día mantiene un nivel estable en su cuerpo?',
    'education.neutral.2':
      'Consejo: si olvida una dosis de {{medicine}}, consulte el prospecto o a su farmacéutico. No tome una dosis doble salvo indicación.',
    'education.neutral.3': 'Guarde {{medicine}} en su envase original, lejos del calor y la humedad, para que funcione como debe.',
    'education.gain.1': '¿Sabía que {{medicine}} funciona mejor si se toma con regularidad? Dosis constantes, protección constante.',
    'education.gain.2':
      'Tomar {{medicine}} como se lo recetaron reduce el riesgo de que su enfermedad empeore y de un ingreso en el hospital.',
    'education.gain.3': 'Asociar {{medicine}} a algo que hace cada día, como el desayuno, ayuda a no olvidarlo.',
    'education.loss.1':
      'Bueno saberlo: dejar {{medicine}} de golpe puede empeorar su enfermedad. Hable con su equipo de salud antes de cambiar nada.',
    'education.loss.2': 'Aunque se sienta bien, las dosis olvidadas de {{medicine}} pueden dejar que su enfermedad avance sin avisar.',
    'education.loss.3':
      'Olvidar varias dosis de {{medicine}} puede restarle eficacia. Si le cuesta encajar las tomas, su equipo de salud puede ayudarle.',
    'education.social.1': 'Muchas personas usan un pastillero semanal para {{medicine}}. Así es fácil ver si falta una dosis.',
    'education.social.2': 'Muchos pacientes ponen una alarma en el teléfono para {{medicine}}. Pequeños hábitos así ayudan a no olvidarlo.',
    'education.social.3':
      'Es algo común: a mucha gente le cuesta tomar un medicamento cada día. Preguntar a su farmacéutico por {{medicine}} es un buen comienzo.',

    'encouragement.neutral.1': 'Siga adelante con su {{medicine}}. Cada dosis cuenta.',
    'encouragement.neutral.2': 'Gracias por seguir con su {{medicine}}. Estamos aquí si necesita algo.',
    'encouragement.neutral.3': 'Día a día: vale la pena mantener su rutina con {{medicine}}.',
    'encouragement.gain.1': 'Muy bien por seguir con {{medicine}}. Cada día que lo toma es una inversión en su salud.',
    'encouragement.gain.2': 'Su rutina con {{medicine}} da frutos: dosis constantes, protección constante.',
    'encouragement.gain.3': '¡Siga así! Seguir con {{medicine}} le ayuda a seguir haciendo lo que le gusta.',
    'encouragement.loss.1': 'Ha creado una buena rutina con {{medicine}}. Que una semana ajetreada no la rompa.',
    'encouragement.loss.2': 'Lo que ha avanzado con {{medicine}} merece protegerse: siga tomándolo cada día.',
    'encouragement.loss.3': 'Las rutinas se pierden con facilidad. Seguir con {{medicine}} evita perder lo logrado.',
    'encouragement.social.1': 'Es una de las muchas personas que siguen al día con su medicación. ¡Adelante con {{medicine}}!',
    'encouragement.social.2': 'Quienes siguen con {{medicine}} a largo plazo son quienes más se benefician, y usted lo está haciendo.',
    'encouragement.social.3': 'Su equipo de salud ve el esfuerzo que pone. ¡Siga adelante con {{medicine}}!',

    'check-in.neutral.1': 'Una pregunta rápida: ¿ha tomado hoy su {{medicine}}?',
    'check-in.neutral.2': '¿Qué tal con {{medicine}}? ¿Tomó la dosis de hoy de las {{dose_time}}?',
    'check-in.neutral.3': 'Comprobación: ¿ha tomado su dosis de {{medicine}} de las {{dose_time}}?',
    'check-in.gain.1': '¿Ha tomado hoy su {{medicine}}? Su respuesta ayuda a su equipo de salud a apoyarle.',
    'check-in.gain.2': '¿Ha tomado hoy su {{medicine}}? Una respuesta rápida nos ayuda a enviar recordatorios solo cuando sirven.',
    'check-in.gain.3': 'Seguimiento de {{medicine}}: ¿tomó la dosis de hoy? Cada respuesta nos ayuda a ajustar su apoyo.',
    'check-in.loss.1': '¿Ha tomado hoy su {{medicine}}? Si se le olvidan dosis, queremos saberlo para ayudarle.',
    'check-in.loss.2': '¿Ha tomado hoy su {{medicine}}? Las dosis olvidadas se resuelven mejor si nos enteramos pronto.',
    'check-in.loss.3': '¿Tomó su dosis de {{medicine}} de las {{dose_time}}? Si no, díganos por qué y le ayudaremos a olvidar menos.',
    'check-in.social.1': 'A mucha gente le ayuda una comprobación diaria rápida. ¿Ha tomado hoy su {{medicine}}?',
    'check-in.social.2': 'Su equipo de salud lee cada respuesta. ¿Ha tomado hoy su {{medicine}}?',
    'check-in.social.3': 'Otras personas que toman {{medicine}} nos dicen que esta pregunta les ayuda. ¿Tomó la dosis de hoy?',
  },
};
